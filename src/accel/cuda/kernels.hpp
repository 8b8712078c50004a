#pragma once
// The module's own GPU kernels, callable from host code: preprocessing, element-wise layers,
// reductions over channels-last tensors, instance norm, the loss, and the optimizer. Tensors
// are [samples][positions][channels]; every launcher enqueues on the given stream and checks
// the launch. dtype says whether activations and gradients are half or float.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>

namespace dlsize::cuda {

enum class dtype { f16, f32 };

void fill_random_bytes(std::uint8_t* p, std::size_t n, std::uint64_t seed, cudaStream_t s);
void fill_u64(std::uint64_t* p, std::size_t n, std::uint64_t v, cudaStream_t s);
void init_uniform(float* p, std::size_t n, float bound, std::uint64_t seed, cudaStream_t s);
void fill_float(float* p, std::size_t n, float v, cudaStream_t s);
void cast_from_float(dtype t, const float* src, void* dst, std::size_t n, cudaStream_t s);
void cast_to_float(dtype t, const void* src, float* dst, std::size_t n, cudaStream_t s);

// uint8 sample bytes to the normalized input tensor: a random crop of the input's size from a
// source of (sd, sh, sw) x c bytes (reading sample bytes cyclically when a sample is shorter),
// a random flip of the last spatial dimension, and (x / 255 - mean) / std per channel. Labels:
// one per sample (a hash of its first bytes) or, with segmentation, one per position (the
// first channel's byte scaled to the classes).
struct preprocess_args {
  const std::uint8_t* raw = nullptr;
  const std::uint64_t* lengths = nullptr;
  std::uint64_t stride = 0; // bytes between samples in raw
  void* out = nullptr;
  std::int32_t* labels = nullptr;
  std::uint32_t* crops = nullptr; // 4 per sample: z, y, x offsets and flip (preprocess's own)
  std::uint32_t n = 0, d = 1, h = 1, w = 1, c = 1; // output (d = 1 for images)
  std::uint32_t sd = 1, sh = 1, sw = 1;            // source
  std::uint64_t seed = 0, step = 0;
  bool segmentation = false;
  std::uint32_t classes = 1;
};
void preprocess(dtype t, const preprocess_args& a, cudaStream_t s);

void relu_forward(dtype t, const void* x, void* y, std::size_t n, cudaStream_t s);
// dx = dy * (y > 0) + beta * dx; dx may be dy (in place).
void relu_backward(dtype t, const void* y, const void* dy, void* dx, std::size_t n, float beta,
                   cudaStream_t s);
void add_forward(dtype t, const void* a, const void* b, void* y, std::size_t n, cudaStream_t s);
// dst = src + beta * dst
void accumulate(dtype t, const void* src, void* dst, std::size_t n, float beta, cudaStream_t s);
// y[r][j] += bias[j] for rows r.
void bias_add(dtype t, void* y, const float* bias, std::size_t rows, std::size_t c, cudaStream_t s);
// out[g][j] = sum over rows r of x[g][r][j]; out is overwritten.
void channel_sum(dtype t, const void* x, float* out, std::size_t groups, std::size_t rows,
                 std::size_t c, cudaStream_t s);
void global_avg_pool_forward(dtype t, const void* x, void* y, std::size_t n, std::size_t positions,
                             std::size_t c, cudaStream_t s);
void global_avg_pool_backward(dtype t, const void* dy, void* dx, std::size_t n,
                              std::size_t positions, std::size_t c, float beta, cudaStream_t s);
void concat_forward(dtype t, const void* a, const void* b, void* y, std::size_t rows,
                    std::size_t ca, std::size_t cb, cudaStream_t s);
// da = dy[:, :ca] + beta_a da; db = dy[:, ca:] + beta_b db; a null da or db is skipped.
void concat_backward(dtype t, const void* dy, void* da, void* db, std::size_t rows, std::size_t ca,
                     std::size_t cb, float beta_a, float beta_b, cudaStream_t s);

// Instance norm over positions per sample and channel (biased variance), affine; mean and rstd
// ([n][c]) are kept for the backward pass, which needs scratch of 2 x n x c floats.
void instance_norm_forward(dtype t, const void* x, void* y, const float* gamma, const float* beta,
                           float* mean, float* rstd, std::size_t n, std::size_t positions,
                           std::size_t c, float eps, cudaStream_t s);
void instance_norm_backward(dtype t, const void* x, const void* dy, void* dx, const float* gamma,
                            const float* mean, const float* rstd, float* dgamma, float* dbeta,
                            float* scratch, std::size_t n, std::size_t positions, std::size_t c,
                            float beta_dx, cudaStream_t s);

// Softmax cross-entropy per position: adds the sum of the losses to *loss_sum and writes
// dlogits = (softmax - onehot) x grad_scale / positions.
void softmax_xent(dtype t, const void* logits, const std::int32_t* labels, void* dlogits,
                  float* loss_sum, std::size_t positions, std::size_t classes, float grad_scale,
                  cudaStream_t s);

// Sets *flag to 1 if any of the n values is not finite.
void check_finite(dtype t, const void* g, std::size_t n, int* flag, cudaStream_t s);
// SGD with momentum and weight decay unless *skip: g = grad x grad_mult + wd x w;
// v = momentum x v + g; w -= lr x v; work (if not null) = w in dtype t.
void sgd_update(dtype grad_type, const void* grad, float* master, void* work, dtype work_type,
                float* velocity, std::size_t n, float lr, float momentum, float wd, float grad_mult,
                const int* skip, cudaStream_t s);

} // namespace dlsize::cuda
