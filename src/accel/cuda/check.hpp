#pragma once
// Checked calls into CUDA, cuDNN, cuBLAS and NCCL: each macro throws cuda_failure with the
// call's text, file:line and the library's error name, and the module's C entry points turn
// it into a dlsize_cuda_status. One macro per library, as the house style asks.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cudnn.h>
#include <nccl.h>

#include <stdexcept>
#include <string>

#include "accel/cuda_abi.h"

namespace dlsize::cuda {

// A failure with the dlsize_cuda_code the caller sees.
class cuda_failure : public std::runtime_error {
public:
  cuda_failure(int32_t code, const std::string& what) : std::runtime_error(what), m_code(code) {}
  int32_t code() const { return m_code; }

private:
  int32_t m_code;
};

[[noreturn]] void throw_cuda(cudaError_t rc, const char* call, const char* file, int line);
[[noreturn]] void throw_cudnn(cudnnStatus_t rc, const char* call, const char* file, int line);
[[noreturn]] void throw_cublas(cublasStatus_t rc, const char* call, const char* file, int line);
[[noreturn]] void throw_nccl(ncclResult_t rc, const char* call, const char* file, int line);
[[noreturn]] void throw_bad(const std::string& what); // DLSIZE_CUDA_BAD_ARGUMENT

} // namespace dlsize::cuda

#define DLSIZE_CUDA_CHECK(call)                                                                    \
  do {                                                                                             \
    const cudaError_t dlsize_rc_ = (call);                                                         \
    if (dlsize_rc_ != cudaSuccess)                                                                 \
      ::dlsize::cuda::throw_cuda(dlsize_rc_, #call, __FILE__, __LINE__);                           \
  } while (0)
#define DLSIZE_CUDNN_CHECK(call)                                                                   \
  do {                                                                                             \
    const cudnnStatus_t dlsize_rc_ = (call);                                                       \
    if (dlsize_rc_ != CUDNN_STATUS_SUCCESS)                                                        \
      ::dlsize::cuda::throw_cudnn(dlsize_rc_, #call, __FILE__, __LINE__);                          \
  } while (0)
#define DLSIZE_CUBLAS_CHECK(call)                                                                  \
  do {                                                                                             \
    const cublasStatus_t dlsize_rc_ = (call);                                                      \
    if (dlsize_rc_ != CUBLAS_STATUS_SUCCESS)                                                       \
      ::dlsize::cuda::throw_cublas(dlsize_rc_, #call, __FILE__, __LINE__);                         \
  } while (0)
#define DLSIZE_NCCL_CHECK(call)                                                                    \
  do {                                                                                             \
    const ncclResult_t dlsize_rc_ = (call);                                                        \
    if (dlsize_rc_ != ncclSuccess)                                                                 \
      ::dlsize::cuda::throw_nccl(dlsize_rc_, #call, __FILE__, __LINE__);                           \
  } while (0)
// Destructors: report and go on.
#define DLSIZE_CUDA_WARN(call) ::dlsize::cuda::warn_on_failure((call), #call, __FILE__, __LINE__)

namespace dlsize::cuda {
void warn_on_failure(cudaError_t rc, const char* call, const char* file, int line) noexcept;
}
