#pragma once
// Helpers shared by the module's kernel files: launch sizes, loads and stores in fp32 of half
// or float tensors, a hash for reproducible randomness, and the dispatch on the activation type.
#include <cuda_fp16.h>

#include <cstdint>

#include "accel/cuda/check.hpp"
#include "accel/cuda/kernels.hpp"

namespace dlsize::cuda::kernel_detail {

constexpr unsigned kThreads = 256;

inline unsigned blocks_for(std::size_t n) {
  const std::size_t b = (n + kThreads - 1) / kThreads;
  return static_cast<unsigned>(b < 65536 * 16 ? (b == 0 ? 1 : b) : 65536 * 16);
}

inline void check_launch() {
  DLSIZE_CUDA_CHECK(cudaGetLastError());
}

__device__ __forceinline__ float ld(const float* p, std::size_t i) {
  return p[i];
}
__device__ __forceinline__ float ld(const __half* p, std::size_t i) {
  return __half2float(p[i]);
}
__device__ __forceinline__ void st(float* p, std::size_t i, float v) {
  p[i] = v;
}
__device__ __forceinline__ void st(__half* p, std::size_t i, float v) {
  p[i] = __float2half(v);
}

__device__ __forceinline__ std::uint64_t mix(std::uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

#define GRID_LOOP(i, n)                                                                            \
  for (std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; i < (n);   \
       i += static_cast<std::size_t>(gridDim.x) * blockDim.x)

template <typename T> struct type_tag { using type = T; };

// Calls f with the tag of the activation type.
template <typename F> inline void dispatch(dtype t, F&& f) {
  if (t == dtype::f16)
    f(type_tag<__half>{});
  else
    f(type_tag<float>{});
}

__device__ __forceinline__ float to_f(float v) {
  return v;
}
__device__ __forceinline__ float to_f(__half v) {
  return __half2float(v);
}
__device__ __forceinline__ void from_f(float& d, float v) {
  d = v;
}
__device__ __forceinline__ void from_f(__half& d, float v) {
  d = __float2half(v);
}

} // namespace dlsize::cuda::kernel_detail
