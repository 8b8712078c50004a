#include "accel/cuda/check.hpp"

#include <cstdio>
#include <cstring>

namespace dlsize::cuda {
namespace {

std::string where(const char* call, const char* file, int line) {
  const char* base = std::strrchr(file, '/');
  // The location goes with the call, as in a syscall's message, so that the message ends with
  // what the user can act on: the library's own words.
  return std::string(call) + " (at " + (base ? base + 1 : file) + ":" + std::to_string(line) +
         ") failed: ";
}

} // namespace

void throw_cuda(cudaError_t rc, const char* call, const char* file, int line) {
  int32_t code = DLSIZE_CUDA_FAILED;
  if (rc == cudaErrorInsufficientDriver || rc == cudaErrorNoDevice)
    code = rc == cudaErrorNoDevice ? DLSIZE_CUDA_NO_DEVICE : DLSIZE_CUDA_NO_DRIVER;
  if (rc == cudaErrorMemoryAllocation)
    code = DLSIZE_CUDA_OUT_OF_MEMORY;
  throw cuda_failure(code, where(call, file, line) + cudaGetErrorName(rc) + " (" +
                               cudaGetErrorString(rc) + ")");
}

void throw_cudnn(cudnnStatus_t rc, const char* call, const char* file, int line) {
  char detail[512] = {};
  cudnnGetLastErrorString(detail, sizeof detail);
  const int32_t code =
      rc == CUDNN_STATUS_ALLOC_FAILED ? DLSIZE_CUDA_OUT_OF_MEMORY : DLSIZE_CUDA_FAILED;
  throw cuda_failure(code,
                     where(call, file, line) + cudnnGetErrorString(rc) +
                         (detail[0] ? std::string("; cuDNN says: ") + detail : std::string()));
}

void throw_cublas(cublasStatus_t rc, const char* call, const char* file, int line) {
  const int32_t code =
      rc == CUBLAS_STATUS_ALLOC_FAILED ? DLSIZE_CUDA_OUT_OF_MEMORY : DLSIZE_CUDA_FAILED;
  throw cuda_failure(code, where(call, file, line) + cublasGetStatusName(rc) + " (" +
                               cublasGetStatusString(rc) + ")");
}

void throw_nccl(ncclResult_t rc, const char* call, const char* file, int line) {
  throw cuda_failure(DLSIZE_CUDA_FAILED, where(call, file, line) + ncclGetErrorString(rc) +
                                             "; last NCCL error: " + ncclGetLastError(nullptr));
}

void throw_bad(const std::string& what) {
  throw cuda_failure(DLSIZE_CUDA_BAD_ARGUMENT, what);
}

void warn_on_failure(cudaError_t rc, const char* call, const char* file, int line) noexcept {
  if (rc != cudaSuccess)
    std::fprintf(stderr, "dlsize-cuda: warning: %s%s\n", where(call, file, line).c_str(),
                 cudaGetErrorName(rc));
}

} // namespace dlsize::cuda
