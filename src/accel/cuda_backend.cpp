#include "accel/cuda_backend.hpp"

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>

#include <fmt/format.h>

#include "core/error.hpp"
#include "dlsize/build_config.hpp"

namespace dlsize::accel {
namespace {

constexpr const char* kPrefix = "--accelerator cuda: ";

std::filesystem::path executable_dir() {
  std::error_code ec;
  const auto exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::filesystem::current_path() : exe.parent_path();
}

bool from_environment() {
  const char* env = std::getenv("DLSIZE_CUDA_MODULE");
  return env != nullptr && *env != '\0';
}

std::string missing_module_message(const std::filesystem::path& path) {
  if (from_environment())
    return fmt::format("{}DLSIZE_CUDA_MODULE names {}, which does not exist. valid: the path of a "
                       "{} built with -DDLSIZE_WITH_CUDA=ON, or unset it",
                       kPrefix, path.string(), DLSIZE_CUDA_MODULE_FILE);
  if (!DLSIZE_HAVE_CUDA)
    return fmt::format("{}the CUDA backend is not enabled in this build (configure with "
                       "-DDLSIZE_WITH_CUDA=ON on a machine with the CUDA toolkit, cuDNN and NCCL, "
                       "or set DLSIZE_CUDA_MODULE to a {} built elsewhere)",
                       kPrefix, DLSIZE_CUDA_MODULE_FILE);
  return fmt::format(
      "{}the CUDA backend module {} is missing; it belongs next to the dlsize "
      "executable or in ../lib/dlsize/ (rebuild, install, or set DLSIZE_CUDA_MODULE)",
      kPrefix, path.string());
}

std::mutex g_mutex;
std::unique_ptr<cuda_backend> g_backend;

} // namespace

std::filesystem::path cuda_module_path() {
  if (from_environment())
    return std::getenv("DLSIZE_CUDA_MODULE");
  // Next to the executable in a build tree; PREFIX/lib/dlsize/ after `cmake --install`.
  const auto beside = executable_dir() / DLSIZE_CUDA_MODULE_FILE;
  const auto installed =
      executable_dir().parent_path() / "lib" / "dlsize" / DLSIZE_CUDA_MODULE_FILE;
  std::error_code ec;
  return !std::filesystem::exists(beside, ec) && std::filesystem::exists(installed, ec) ? installed
                                                                                        : beside;
}

std::string explain_dlopen_error(const std::filesystem::path& module, const std::string& text) {
  const std::string marker = ": cannot open shared object file";
  if (const auto pos = text.find(marker); pos != std::string::npos) {
    const std::filesystem::path lib = text.substr(0, pos);
    if (lib.filename() != module.filename())
      return fmt::format("{}{} needs the library {}, which is not installed or not on the library "
                         "path; install it or add its folder to LD_LIBRARY_PATH ({})",
                         kPrefix, module.string(), lib.string(), text);
  }
  for (const char* bad : {"invalid ELF header", "file too short", "wrong ELF class", "not an ELF"})
    if (text.find(bad) != std::string::npos)
      return fmt::format("{}{} is not a loadable module ({}); rebuild with -DDLSIZE_WITH_CUDA=ON "
                         "or point DLSIZE_CUDA_MODULE at a {}",
                         kPrefix, module.string(), text, DLSIZE_CUDA_MODULE_FILE);
  if (text.find("undefined symbol") != std::string::npos)
    return fmt::format("{}{} does not match the installed CUDA, cuDNN, cuBLAS or NCCL (older than "
                       "it was built with?): {}",
                       kPrefix, module.string(), text);
  return fmt::format("{}cannot load {}: {}", kPrefix, module.string(), text);
}

void throw_cuda_status(int32_t rc, const dlsize_cuda_status& st, const char* call) {
  const std::string msg(st.message, strnlen(st.message, sizeof st.message));
  switch (rc) {
  case DLSIZE_CUDA_NO_DRIVER:
  case DLSIZE_CUDA_NO_DEVICE:
  case DLSIZE_CUDA_BAD_ARGUMENT:
  case DLSIZE_CUDA_OUT_OF_MEMORY:
    throw usage_error(kPrefix + msg);
  default:
    throw run_error(fmt::format("CUDA backend: {} (in {})", msg, call));
  }
}

cuda_backend::cuda_backend(std::filesystem::path path) : m_path(std::move(path)) {
  std::error_code ec;
  if (!std::filesystem::exists(m_path, ec))
    throw usage_error(missing_module_message(m_path));
  dlerror();
  // Never closed: the CUDA runtime inside must outlive every object that used it.
  m_handle = dlopen(m_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (m_handle == nullptr) {
    const char* err = dlerror();
    throw usage_error(explain_dlopen_error(m_path, err ? err : "unknown dlopen error"));
  }
  auto entry = reinterpret_cast<dlsize_cuda_entry_fn>(dlsym(m_handle, DLSIZE_CUDA_ENTRY));
  if (entry == nullptr)
    throw usage_error(fmt::format("{}{} is not a dlsize CUDA module: it has no {} function",
                                  kPrefix, m_path.string(), DLSIZE_CUDA_ENTRY));
  m_api = entry();
  if (m_api == nullptr || m_api->abi_version != DLSIZE_CUDA_ABI_VERSION ||
      m_api->struct_size < sizeof(dlsize_cuda_api))
    throw usage_error(fmt::format("{}{} speaks module ABI version {}, this dlsize version {}; "
                                  "rebuild them together",
                                  kPrefix, m_path.string(), m_api ? m_api->abi_version : 0u,
                                  DLSIZE_CUDA_ABI_VERSION));
}

const cuda_backend& cuda_backend::get() {
  std::lock_guard lk(g_mutex);
  if (!g_backend)
    g_backend.reset(new cuda_backend(cuda_module_path()));
  return *g_backend;
}

dlsize_cuda_probe_result cuda_backend::require_device(int device) const {
  dlsize_cuda_probe_result r{};
  dlsize_cuda_status st{};
  DLSIZE_CUDA_CALL(m_api->probe(&r, &st), st);
  if (r.device_count < 1)
    throw usage_error(fmt::format("{}the driver (CUDA {}.{}) sees no GPU", kPrefix,
                                  r.driver_version / 1000, r.driver_version % 1000 / 10));
  if (device < -1 || device >= r.device_count)
    throw usage_error(fmt::format("{}no device {}: this machine has {} (0 to {})", kPrefix, device,
                                  r.device_count, r.device_count - 1));
  return r;
}

std::string cuda_backend::version_line() {
  const auto path = cuda_module_path();
  std::error_code ec;
  if (!std::filesystem::exists(path, ec))
    return DLSIZE_HAVE_CUDA ? fmt::format("cuda module: missing (looked for {})", path.string())
                            : std::string("cuda module: none (the backend is not built)");
  try {
    return fmt::format("cuda module: {} ({})", path.string(), get().api().build);
  } catch (const usage_error& e) {
    return fmt::format("cuda module: {} cannot be loaded: {}", path.string(), e.what());
  }
}

} // namespace dlsize::accel
