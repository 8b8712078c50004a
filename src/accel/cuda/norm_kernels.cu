// Reductions over channels-last tensors (declared in kernels.hpp): per-channel sums, instance
// norm, global average pooling and the softmax cross-entropy, accumulating in fp32.
#include "accel/cuda/kernel_common.cuh"

namespace dlsize::cuda {
namespace {

using namespace kernel_detail;

// Sums over rows of [groups][rows][c] into out[groups][c] (zeroed before): 32 channels by 8 rows
// a block, blocks over channel tiles (x), row chunks (y) and groups (z); atomics join chunks.
// mode 0: x; mode 1: (x - mean)^2; mode 2: dy and dy x xhat into out and out2.
template <typename T, int mode>
__global__ void k_reduce_rows(const T* x, const T* dy, const float* mean, const float* rstd,
                              float* out, float* out2, std::size_t rows, std::size_t c) {
  __shared__ float s1[8][33], s2[8][33];
  const std::size_t j = blockIdx.x * 32 + threadIdx.x, g = blockIdx.z;
  float a = 0, b = 0;
  if (j < c) {
    const float m = mode == 0 ? 0.0f : mean[g * c + j];
    const float r = mode == 2 ? rstd[g * c + j] : 0.0f;
    for (std::size_t row = blockIdx.y * 8 + threadIdx.y; row < rows; row += gridDim.y * 8) {
      const std::size_t i = (g * rows + row) * c + j;
      const float v = ld(x, i);
      if (mode == 0)
        a += v;
      if (mode == 1)
        a += (v - m) * (v - m);
      if (mode == 2) {
        const float d = ld(dy, i);
        a += d;
        b += d * (v - m) * r;
      }
    }
  }
  s1[threadIdx.y][threadIdx.x] = a;
  s2[threadIdx.y][threadIdx.x] = b;
  __syncthreads();
  if (threadIdx.y == 0 && j < c) {
    for (int k = 1; k < 8; ++k) {
      a += s1[k][threadIdx.x];
      b += s2[k][threadIdx.x];
    }
    atomicAdd(&out[g * c + j], a);
    if (mode == 2)
      atomicAdd(&out2[g * c + j], b);
  }
}

template <typename T, int mode>
void reduce_rows(const T* x, const T* dy, const float* mean, const float* rstd, float* out,
                 float* out2, std::size_t groups, std::size_t rows, std::size_t c, cudaStream_t s) {
  DLSIZE_CUDA_CHECK(cudaMemsetAsync(out, 0, groups * c * sizeof(float), s));
  if (out2)
    DLSIZE_CUDA_CHECK(cudaMemsetAsync(out2, 0, groups * c * sizeof(float), s));
  const std::size_t chunks = (rows + 8 * 64 - 1) / (8 * 64);
  const dim3 grid(static_cast<unsigned>((c + 31) / 32),
                  static_cast<unsigned>(chunks < 1024 ? chunks : 1024),
                  static_cast<unsigned>(groups));
  k_reduce_rows<T, mode><<<grid, dim3(32, 8), 0, s>>>(x, dy, mean, rstd, out, out2, rows, c);
  check_launch();
}

__global__ void k_norm_stats(float* mean, float* rstd, const float* sq, std::size_t nc,
                             float positions, float eps, int pass) {
  GRID_LOOP(i, nc) {
    if (pass == 0)
      mean[i] /= positions;
    else
      rstd[i] = rsqrtf(sq[i] / positions + eps);
  }
}

template <typename T>
__global__ void k_instance_apply(const T* x, T* y, const float* gamma, const float* beta,
                                 const float* mean, const float* rstd, std::size_t positions,
                                 std::size_t c, std::size_t total) {
  GRID_LOOP(i, total) {
    const std::size_t j = i % c, g = i / (positions * c);
    const std::size_t k = g * c + j;
    st(y, i, (ld(x, i) - mean[k]) * rstd[k] * gamma[j] + beta[j]);
  }
}

__global__ void k_param_grads(const float* sum_dy, const float* sum_dyxhat, float* dgamma,
                              float* dbeta, std::size_t n, std::size_t c) {
  GRID_LOOP(j, c) {
    float a = 0, b = 0;
    for (std::size_t g = 0; g < n; ++g) {
      a += sum_dyxhat[g * c + j];
      b += sum_dy[g * c + j];
    }
    dgamma[j] = a;
    dbeta[j] = b;
  }
}

template <typename T>
__global__ void k_instance_back(const T* x, const T* dy, T* dx, const float* gamma,
                                const float* mean, const float* rstd, const float* sum_dy,
                                const float* sum_dyxhat, std::size_t positions, std::size_t c,
                                std::size_t total, float beta) {
  GRID_LOOP(i, total) {
    const std::size_t j = i % c, g = i / (positions * c), k = g * c + j;
    const float xhat = (ld(x, i) - mean[k]) * rstd[k];
    const float p = static_cast<float>(positions);
    const float v = gamma[j] * rstd[k] * (ld(dy, i) - sum_dy[k] / p - xhat * sum_dyxhat[k] / p);
    st(dx, i, beta != 0.0f ? v + beta * ld(dx, i) : v);
  }
}

template <typename T>
__global__ void k_gap_forward(const T* x, T* y, std::size_t n, std::size_t positions,
                              std::size_t c) {
  GRID_LOOP(i, n * c) {
    const std::size_t g = i / c, j = i % c;
    float a = 0;
    for (std::size_t p = 0; p < positions; ++p)
      a += ld(x, (g * positions + p) * c + j);
    st(y, i, a / static_cast<float>(positions));
  }
}

template <typename T>
__global__ void k_gap_backward(const T* dy, T* dx, std::size_t n, std::size_t positions,
                               std::size_t c, float beta) {
  GRID_LOOP(i, n * positions * c) {
    const std::size_t j = i % c, g = i / (positions * c);
    const float v = ld(dy, g * c + j) / static_cast<float>(positions);
    st(dx, i, beta != 0.0f ? v + beta * ld(dx, i) : v);
  }
}

template <typename T>
__global__ void k_softmax_xent(const T* logits, const std::int32_t* labels, T* dlogits,
                               float* loss_sum, std::size_t positions, std::size_t classes,
                               float grad_scale) {
  __shared__ float part[kThreads];
  float loss = 0;
  const std::size_t p = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (p < positions) {
    const std::size_t base = p * classes;
    float mx = -INFINITY;
    for (std::size_t j = 0; j < classes; ++j)
      mx = fmaxf(mx, ld(logits, base + j));
    float sum = 0;
    for (std::size_t j = 0; j < classes; ++j)
      sum += __expf(ld(logits, base + j) - mx);
    const auto label = static_cast<std::size_t>(labels[p]);
    loss = logf(sum) - (ld(logits, base + label) - mx);
    const float k = grad_scale / static_cast<float>(positions);
    for (std::size_t j = 0; j < classes; ++j) {
      const float sm = __expf(ld(logits, base + j) - mx) / sum;
      st(dlogits, base + j, (sm - (j == label ? 1.0f : 0.0f)) * k);
    }
  }
  part[threadIdx.x] = loss;
  __syncthreads();
  for (unsigned w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w)
      part[threadIdx.x] += part[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    atomicAdd(loss_sum, part[0]);
}

} // namespace

void channel_sum(dtype t, const void* x, float* out, std::size_t groups, std::size_t rows,
                 std::size_t c, cudaStream_t s) {
  dispatch(t, [&](auto tag) {
    using E = typename decltype(tag)::type;
    reduce_rows<E, 0>(static_cast<const E*>(x), nullptr, nullptr, nullptr, out, nullptr, groups,
                      rows, c, s);
  });
}

void global_avg_pool_forward(dtype t, const void* x, void* y, std::size_t n, std::size_t positions,
                             std::size_t c, cudaStream_t s) {
  dispatch(t, [&](auto tag) {
    using E = typename decltype(tag)::type;
    k_gap_forward<<<blocks_for(n * c), kThreads, 0, s>>>(static_cast<const E*>(x),
                                                         static_cast<E*>(y), n, positions, c);
  });
  check_launch();
}

void global_avg_pool_backward(dtype t, const void* dy, void* dx, std::size_t n,
                              std::size_t positions, std::size_t c, float beta, cudaStream_t s) {
  dispatch(t, [&](auto tag) {
    using E = typename decltype(tag)::type;
    k_gap_backward<<<blocks_for(n * positions * c), kThreads, 0, s>>>(
        static_cast<const E*>(dy), static_cast<E*>(dx), n, positions, c, beta);
  });
  check_launch();
}

void instance_norm_forward(dtype t, const void* x, void* y, const float* gamma, const float* beta,
                           float* mean, float* rstd, std::size_t n, std::size_t positions,
                           std::size_t c, float eps, cudaStream_t s) {
  const std::size_t nc = n * c, total = n * positions * c;
  dispatch(t, [&](auto tag) {
    using E = typename decltype(tag)::type;
    const E* xs = static_cast<const E*>(x);
    reduce_rows<E, 0>(xs, nullptr, nullptr, nullptr, mean, nullptr, n, positions, c, s);
    k_norm_stats<<<blocks_for(nc), kThreads, 0, s>>>(mean, rstd, nullptr, nc,
                                                     static_cast<float>(positions), eps, 0);
    check_launch();
    // rstd first holds the sum of squared deviations, then 1 / sqrt(variance + eps).
    reduce_rows<E, 1>(xs, nullptr, mean, nullptr, rstd, nullptr, n, positions, c, s);
    k_norm_stats<<<blocks_for(nc), kThreads, 0, s>>>(mean, rstd, rstd, nc,
                                                     static_cast<float>(positions), eps, 1);
    check_launch();
    k_instance_apply<<<blocks_for(total), kThreads, 0, s>>>(xs, static_cast<E*>(y), gamma, beta,
                                                            mean, rstd, positions, c, total);
    check_launch();
  });
}

void instance_norm_backward(dtype t, const void* x, const void* dy, void* dx, const float* gamma,
                            const float* mean, const float* rstd, float* dgamma, float* dbeta,
                            float* scratch, std::size_t n, std::size_t positions, std::size_t c,
                            float beta_dx, cudaStream_t s) {
  const std::size_t total = n * positions * c;
  float* sum_dy = scratch;
  float* sum_dyxhat = scratch + n * c;
  dispatch(t, [&](auto tag) {
    using E = typename decltype(tag)::type;
    reduce_rows<E, 2>(static_cast<const E*>(x), static_cast<const E*>(dy), mean, rstd, sum_dy,
                      sum_dyxhat, n, positions, c, s);
    k_param_grads<<<blocks_for(c), kThreads, 0, s>>>(sum_dy, sum_dyxhat, dgamma, dbeta, n, c);
    check_launch();
    if (dx) {
      k_instance_back<<<blocks_for(total), kThreads, 0, s>>>(
          static_cast<const E*>(x), static_cast<const E*>(dy), static_cast<E*>(dx), gamma, mean,
          rstd, sum_dy, sum_dyxhat, positions, c, total, beta_dx);
      check_launch();
    }
  });
}

void softmax_xent(dtype t, const void* logits, const std::int32_t* labels, void* dlogits,
                  float* loss_sum, std::size_t positions, std::size_t classes, float grad_scale,
                  cudaStream_t s) {
  const auto blocks = static_cast<unsigned>((positions + kThreads - 1) / kThreads);
  dispatch(t, [&](auto tag) {
    using E = typename decltype(tag)::type;
    k_softmax_xent<<<blocks, kThreads, 0, s>>>(static_cast<const E*>(logits), labels,
                                               static_cast<E*>(dlogits), loss_sum, positions,
                                               classes, grad_scale);
  });
  check_launch();
}

} // namespace dlsize::cuda
