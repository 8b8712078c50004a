#include "accel/cuda/check.hpp"

#include <cstdio>
#include <cstring>

namespace dlsize::cuda {
namespace {

std::string where(const char* call, const char* file, int line) {
  const char* base = std::strrchr(file, '/');
  return std::string(call) + " at " + (base ? base + 1 : file) + ":" + std::to_string(line);
}

} // namespace

void throw_cuda(cudaError_t rc, const char* call, const char* file, int line) {
  int32_t code = DLSIZE_CUDA_FAILED;
  if (rc == cudaErrorInsufficientDriver || rc == cudaErrorNoDevice)
    code = rc == cudaErrorNoDevice ? DLSIZE_CUDA_NO_DEVICE : DLSIZE_CUDA_NO_DRIVER;
  if (rc == cudaErrorMemoryAllocation)
    code = DLSIZE_CUDA_OUT_OF_MEMORY;
  throw cuda_failure(code, std::string(cudaGetErrorName(rc)) + " (" + cudaGetErrorString(rc) +
                               ") from " + where(call, file, line));
}

void throw_cudnn(cudnnStatus_t rc, const char* call, const char* file, int line) {
  char detail[512] = {};
  cudnnGetLastErrorString(detail, sizeof detail);
  const int32_t code =
      rc == CUDNN_STATUS_ALLOC_FAILED ? DLSIZE_CUDA_OUT_OF_MEMORY : DLSIZE_CUDA_FAILED;
  throw cuda_failure(code,
                     std::string(cudnnGetErrorString(rc)) + " from " + where(call, file, line) +
                         (detail[0] ? std::string("; cuDNN says: ") + detail : std::string()));
}

void throw_cublas(cublasStatus_t rc, const char* call, const char* file, int line) {
  const int32_t code =
      rc == CUBLAS_STATUS_ALLOC_FAILED ? DLSIZE_CUDA_OUT_OF_MEMORY : DLSIZE_CUDA_FAILED;
  throw cuda_failure(code, std::string(cublasGetStatusName(rc)) + " (" + cublasGetStatusString(rc) +
                               ") from " + where(call, file, line));
}

void throw_nccl(ncclResult_t rc, const char* call, const char* file, int line) {
  throw cuda_failure(DLSIZE_CUDA_FAILED, std::string(ncclGetErrorString(rc)) + " from " +
                                             where(call, file, line) +
                                             "; last NCCL error: " + ncclGetLastError(nullptr));
}

void throw_bad(const std::string& what) {
  throw cuda_failure(DLSIZE_CUDA_BAD_ARGUMENT, what);
}

void warn_on_failure(cudaError_t rc, const char* call, const char* file, int line) noexcept {
  if (rc != cudaSuccess)
    std::fprintf(stderr, "dlsize-cuda: warning: %s from %s\n", cudaGetErrorName(rc),
                 where(call, file, line).c_str());
}

} // namespace dlsize::cuda
