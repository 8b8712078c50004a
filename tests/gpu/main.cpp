// The GPU tests' main: they need a usable GPU; without one they are skipped (exit 77) with the
// reason the backend gives (no driver, no device, a missing library). On a machine that has a
// GPU (/dev/nvidia0, or DLSIZE_GPU_HOST=1 from the GPU check) the same reason is a failure
// (exit 1): there a library that cannot be found must not read as a skip.
#define CATCH_CONFIG_RUNNER
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>

#include <catch2/catch.hpp>

#include "accel/cuda_backend.hpp"

namespace {

bool gpu_host() {
  const char* env = std::getenv("DLSIZE_GPU_HOST");
  if (env != nullptr && *env != '\0')
    return std::strcmp(env, "0") != 0;
  return ::access("/dev/nvidia0", F_OK) == 0;
}

} // namespace

int main(int argc, char** argv) {
  ::setenv("DLSIZE_CUDA_MODULE", DLSIZE_CUDA_MODULE_PATH, 0);
  try {
    const auto p = dlsize::accel::cuda_backend::get().require_device(0);
    std::printf("GPU tests on %s (driver CUDA %d, %s)\n", p.devices[0].name, p.driver_version,
                dlsize::accel::cuda_backend::get().api().build);
  } catch (const std::exception& e) {
    if (gpu_host()) {
      std::printf("FAILED: this machine has a GPU, but the backend cannot use it: %s\n", e.what());
      return 1;
    }
    std::printf("skipped: no usable GPU: %s\n", e.what());
    return 77;
  }
  return Catch::Session().run(argc, argv);
}
