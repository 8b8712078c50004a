#pragma once
// The CUDA backend as the core sees it: the module dlsize-cuda.so, found next to the dlsize
// executable (or at $DLSIZE_CUDA_MODULE), loaded with dlopen on first use and checked for its
// ABI version. Every way it can be unusable is a usage_error (exit 2) that says what is
// missing: the backend not built, the module file, a library it needs, the driver, the device.
#include <cstdint>
#include <filesystem>
#include <string>

#include "accel/cuda_abi.h"

namespace dlsize::accel {

class cuda_backend {
public:
  // Loads the module once per process. Throws usage_error naming what is missing.
  static const cuda_backend& get();

  const dlsize_cuda_api& api() const { return *m_api; }
  const std::filesystem::path& path() const { return m_path; }

  // The driver and devices; throws usage_error when there is no driver or no device, or
  // when device is not one of them (-1: any device will do).
  dlsize_cuda_probe_result require_device(int device) const;

  // One line for `dlsize --version`: built or not, module found or not, and its build.
  static std::string version_line();

private:
  explicit cuda_backend(std::filesystem::path path);
  std::filesystem::path m_path;
  void* m_handle = nullptr;
  const dlsize_cuda_api* m_api = nullptr;
};

// Where the module is looked for: $DLSIZE_CUDA_MODULE if set, else next to the executable.
std::filesystem::path cuda_module_path();

// The message for a module that dlopen refused, from dlerror's text: a library it needs that is
// missing (named), a file that is not a module, or an undefined symbol.
std::string explain_dlopen_error(const std::filesystem::path& module,
                                 const std::string& dlerror_text);

// Throws the status of a failed module call: usage_error for a missing driver or device, a bad
// argument or a model too large for the device; run_error otherwise.
void throw_cuda_status(int32_t rc, const dlsize_cuda_status& st, const char* call);

// Calls a module function and throws its status on failure.
#define DLSIZE_CUDA_CALL(call, st)                                                                 \
  do {                                                                                             \
    const int32_t dlsize_rc_ = (call);                                                             \
    if (dlsize_rc_ != DLSIZE_CUDA_OK)                                                              \
      ::dlsize::accel::throw_cuda_status(dlsize_rc_, (st), #call);                                 \
  } while (0)

} // namespace dlsize::accel
