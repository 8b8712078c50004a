#pragma once
// Helpers shared by the unit tests.
#include <stdlib.h>

#include <filesystem>
#include <stdexcept>
#include <string>
#include <system_error>

#include <nlohmann/json.hpp>

#include "core/error.hpp"

namespace dlsize::test {

// Runs f and returns the message of the usage_error it throws; a marker string otherwise.
template <typename F> std::string usage_error_message(F&& f) {
  try {
    f();
  } catch (const dlsize::usage_error& e) {
    return e.what();
  } catch (...) {
    return "<an exception other than usage_error>";
  }
  return "<no exception>";
}

// The message of the usage_error check throws for request once change has edited it (a copy);
// a marker string where it throws none.
template <typename Request, typename Change, typename Check>
std::string refusal_after(Request request, Change&& change, Check&& check) {
  change(request);
  return usage_error_message([&] { check(request); });
}

// The smallest valid calibration: resnet50's compute time on an h200, as a hand would write it.
inline nlohmann::json minimal_calibration() {
  return {{"schema", "dlsize.calibration/1"},
          {"workload", "resnet50"},
          {"accelerator", "h200"},
          {"batch_size", 256},
          {"compute_time_s", 0.1}};
}

// Points the CUDA backend loader at the fake module of tests/modules (a CPU stand-in), before
// the first use of the backend in this process; every unit test that touches it calls this.
inline void use_fake_cuda_module() {
#ifdef DLSIZE_FAKE_CUDA_MODULE
  ::setenv("DLSIZE_CUDA_MODULE", DLSIZE_FAKE_CUDA_MODULE, 0);
#endif
}

// A fresh folder under the system's temporary directory, removed with everything in it when the
// test ends.
struct temp_dir {
  std::filesystem::path path;
  explicit temp_dir(const std::string& name = "dlsize-unit") {
    std::string tmpl = (std::filesystem::temp_directory_path() / (name + "-XXXXXX")).string();
    if (::mkdtemp(tmpl.data()) == nullptr)
      throw std::runtime_error("mkdtemp failed for " + tmpl);
    path = tmpl;
  }
  ~temp_dir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  temp_dir(const temp_dir&) = delete;
  temp_dir& operator=(const temp_dir&) = delete;
};

} // namespace dlsize::test
