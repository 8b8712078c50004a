#include "accel/cuda/device_memory.hpp"

#include <cuda_runtime.h>

#include <cstdio>

#include "accel/cuda/check.hpp"

namespace dlsize::cuda {
namespace {

std::string gib(std::size_t b) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f GiB", static_cast<double>(b) / (1ull << 30));
  return text;
}

} // namespace

template <bool Pinned>
buffer<Pinned>::buffer(std::size_t bytes, const std::string& what) : m_bytes(bytes) {
  if (bytes == 0)
    return;
  const cudaError_t rc =
      Pinned ? cudaHostAlloc(&m_p, bytes, cudaHostAllocPortable) : cudaMalloc(&m_p, bytes);
  if (rc == cudaSuccess)
    return;
  m_p = nullptr;
  cudaGetLastError();
  if (rc != cudaErrorMemoryAllocation)
    throw_cuda(rc, Pinned ? "cudaHostAlloc" : "cudaMalloc", __FILE__, __LINE__);
  std::size_t free = 0, total = 0;
  cudaMemGetInfo(&free, &total);
  throw cuda_failure(DLSIZE_CUDA_OUT_OF_MEMORY,
                     Pinned ? what + ": cudaHostAlloc of " + gib(bytes) +
                                  " of pinned host memory failed"
                            : what + " needs " + gib(bytes) + " of device memory, " + gib(free) +
                                  " of " + gib(total) + " are free; use a smaller --batch-size");
}

template <bool Pinned> void buffer<Pinned>::release() noexcept {
  if (m_p == nullptr)
    return;
  if (Pinned)
    DLSIZE_CUDA_WARN(cudaFreeHost(m_p));
  else
    DLSIZE_CUDA_WARN(cudaFree(m_p));
  m_p = nullptr;
}

template class buffer<false>;
template class buffer<true>;

} // namespace dlsize::cuda
