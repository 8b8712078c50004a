// The module's kernels (declared in kernels.hpp). Straightforward grid-stride loops and
// reductions in fp32, templated on the activation type; correctness first.
#include <cuda_fp16.h>

#include <cstdint>

#include "accel/cuda/check.hpp"
#include "accel/cuda/kernels.hpp"

namespace dlsize::cuda {
namespace {

constexpr unsigned kThreads = 256;

unsigned blocks_for(std::size_t n) {
  const std::size_t b = (n + kThreads - 1) / kThreads;
  return static_cast<unsigned>(b < 65536 * 16 ? (b == 0 ? 1 : b) : 65536 * 16);
}

void check_launch() {
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
template <typename F> void dispatch(dtype t, F&& f) {
  if (t == dtype::f16)
    f(type_tag<__half>{});
  else
    f(type_tag<float>{});
}

__global__ void k_random_bytes(std::uint8_t* p, std::size_t n, std::uint64_t seed) {
  GRID_LOOP(i, n) p[i] = static_cast<std::uint8_t>(mix(seed ^ (i * 0x2545f4914f6cdd1dull)) >> 56);
}

__global__ void k_fill_u64(std::uint64_t* p, std::size_t n, std::uint64_t v) {
  GRID_LOOP(i, n) p[i] = v;
}

__global__ void k_uniform(float* p, std::size_t n, float bound, std::uint64_t seed) {
  GRID_LOOP(i, n) {
    const double u = static_cast<double>(mix(seed + i) >> 11) * (1.0 / 9007199254740992.0);
    p[i] = static_cast<float>((2.0 * u - 1.0) * bound);
  }
}

__global__ void k_fill(float* p, std::size_t n, float v) {
  GRID_LOOP(i, n) p[i] = v;
}

template <typename T> __global__ void k_from_float(const float* src, T* dst, std::size_t n) {
  GRID_LOOP(i, n) st(dst, i, src[i]);
}

template <typename T> __global__ void k_to_float(const T* src, float* dst, std::size_t n) {
  GRID_LOOP(i, n) dst[i] = ld(src, i);
}

template <typename T> __global__ void k_preprocess(preprocess_args a, T* out) {
  const std::size_t total = static_cast<std::size_t>(a.n) * a.d * a.h * a.w * a.c;
  GRID_LOOP(idx, total) {
    std::size_t r = idx;
    const auto ci = static_cast<std::uint32_t>(r % a.c);
    r /= a.c;
    const auto x = static_cast<std::uint32_t>(r % a.w);
    r /= a.w;
    const auto y = static_cast<std::uint32_t>(r % a.h);
    r /= a.h;
    const auto z = static_cast<std::uint32_t>(r % a.d);
    const auto n = static_cast<std::uint32_t>(r / a.d);
    const std::uint64_t h = mix(a.seed ^ mix(a.step * 0x100000001b3ull + n));
    const std::uint32_t oz = static_cast<std::uint32_t>(h % (a.sd - a.d + 1));
    const std::uint32_t oy = static_cast<std::uint32_t>((h >> 16) % (a.sh - a.h + 1));
    const std::uint32_t ox = static_cast<std::uint32_t>((h >> 32) % (a.sw - a.w + 1));
    const bool flip = (h >> 63) != 0;
    const std::uint32_t sx = flip ? ox + a.w - 1 - x : ox + x;
    const std::uint64_t src =
        ((static_cast<std::uint64_t>(oz + z) * a.sh + (oy + y)) * a.sw + sx) * a.c + ci;
    const std::uint64_t len = a.lengths[n];
    const std::uint8_t byte = len ? a.raw[static_cast<std::uint64_t>(n) * a.stride + src % len] : 0;
    const float mean_rgb[3] = {0.485f, 0.456f, 0.406f}, std_rgb[3] = {0.229f, 0.224f, 0.225f};
    const float mean = a.c == 3 ? mean_rgb[ci] : 0.5f, sd = a.c == 3 ? std_rgb[ci] : 0.25f;
    st(out, idx, (byte * (1.0f / 255.0f) - mean) / sd);
    if (a.segmentation && ci == 0) {
      const std::uint64_t pos = idx / a.c;
      a.labels[pos] = static_cast<std::int32_t>(min(a.classes - 1, (byte * a.classes) >> 8));
    }
  }
}

__global__ void k_sample_labels(preprocess_args a) {
  const std::uint32_t n = blockIdx.x * blockDim.x + threadIdx.x;
  if (n >= a.n)
    return;
  const std::uint64_t len = a.lengths[n] < 64 ? a.lengths[n] : 64;
  std::uint64_t h = 0xcbf29ce484222325ull;
  for (std::uint64_t i = 0; i < len; ++i)
    h = (h ^ a.raw[n * a.stride + i]) * 0x100000001b3ull;
  a.labels[n] = static_cast<std::int32_t>(mix(h) % a.classes);
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

// V elements loaded and stored as one 16-byte access (V = 1: one element).
template <typename T, int V> struct alignas(sizeof(T) * V) pack { T v[V]; };

// y = op(a, b, y) element-wise over n elements in packs of V; a or b may be null (op ignores
// them), and y is read only when op.reads_y.
template <typename T, int V, typename Op>
__global__ void k_map(const T* a, const T* b, T* y, std::size_t n, Op op) {
  using P = pack<T, V>;
  GRID_LOOP(i, n / V) {
    const P pa = a ? reinterpret_cast<const P*>(a)[i] : P{};
    const P pb = b ? reinterpret_cast<const P*>(b)[i] : P{};
    P py = op.reads_y ? reinterpret_cast<const P*>(y)[i] : P{};
#pragma unroll
    for (int k = 0; k < V; ++k)
      from_f(py.v[k], op(to_f(pa.v[k]), to_f(pb.v[k]), to_f(py.v[k])));
    reinterpret_cast<P*>(y)[i] = py;
  }
}

struct relu_op {
  bool reads_y = false;
  __device__ float operator()(float x, float, float) const { return fmaxf(x, 0.0f); }
};
struct relu_back_op { // a: the ReLU's output, b: its gradient, y: the input's gradient
  float beta;
  bool reads_y;
  __device__ float operator()(float out, float g, float old) const {
    const float v = out > 0.0f ? g : 0.0f;
    return reads_y ? v + beta * old : v;
  }
};
struct add_op {
  bool reads_y = false;
  __device__ float operator()(float x, float z, float) const { return x + z; }
};
struct accumulate_op { // a: the source, y: the destination
  float beta;
  bool reads_y;
  __device__ float operator()(float src, float, float old) const {
    return reads_y ? src + beta * old : src;
  }
};

bool aligned16(const void* p) {
  return reinterpret_cast<std::uintptr_t>(p) % 16 == 0;
}

// Launches k_map with 16-byte packs when the count and every pointer allow it.
template <typename T, typename Op>
void map(const void* a, const void* b, void* y, std::size_t n, Op op, cudaStream_t s) {
  constexpr int V = 16 / sizeof(T);
  const auto* ta = static_cast<const T*>(a);
  const auto* tb = static_cast<const T*>(b);
  auto* ty = static_cast<T*>(y);
  if (n % V == 0 && aligned16(a) && aligned16(b) && aligned16(y))
    k_map<T, V><<<blocks_for(n / V), kThreads, 0, s>>>(ta, tb, ty, n, op);
  else
    k_map<T, 1><<<blocks_for(n), kThreads, 0, s>>>(ta, tb, ty, n, op);
  check_launch();
}

template <typename T>
__global__ void k_bias_add(T* y, const float* bias, std::size_t rows, std::size_t c) {
  GRID_LOOP(i, rows * c) st(y, i, ld(y, i) + bias[i % c]);
}

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
__global__ void k_concat(const T* a, const T* b, T* y, std::size_t rows, std::size_t ca,
                         std::size_t cb) {
  const std::size_t c = ca + cb;
  GRID_LOOP(i, rows * c) {
    const std::size_t r = i / c, j = i % c;
    st(y, i, j < ca ? ld(a, r * ca + j) : ld(b, r * cb + (j - ca)));
  }
}

template <typename T>
__global__ void k_split(const T* dy, T* da, T* db, std::size_t rows, std::size_t ca, std::size_t cb,
                        float beta_a, float beta_b) {
  const std::size_t c = ca + cb;
  GRID_LOOP(i, rows * c) {
    const std::size_t r = i / c, j = i % c;
    const float v = ld(dy, i);
    if (j < ca) {
      if (da)
        st(da, r * ca + j, beta_a != 0.0f ? v + beta_a * ld(da, r * ca + j) : v);
    } else if (db) {
      const std::size_t k = r * cb + (j - ca);
      st(db, k, beta_b != 0.0f ? v + beta_b * ld(db, k) : v);
    }
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

template <typename T> __global__ void k_check_finite(const T* g, std::size_t n, int* flag) {
  GRID_LOOP(i, n) if (!isfinite(ld(g, i)))* flag = 1;
}

template <typename G, typename W>
__global__ void k_sgd(const G* grad, float* master, W* work, float* velocity, std::size_t n,
                      float lr, float momentum, float wd, float grad_mult, const int* skip) {
  if (*skip)
    return;
  GRID_LOOP(i, n) {
    const float w = master[i];
    const float g = ld(grad, i) * grad_mult + wd * w;
    const float v = momentum * velocity[i] + g;
    velocity[i] = v;
    const float nw = w - lr * v;
    master[i] = nw;
    if (work)
      st(work, i, nw);
  }
}

} // namespace

void fill_random_bytes(std::uint8_t* p, std::size_t n, std::uint64_t seed, cudaStream_t s) {
  k_random_bytes<<<blocks_for(n), kThreads, 0, s>>>(p, n, seed);
  check_launch();
}

void fill_u64(std::uint64_t* p, std::size_t n, std::uint64_t v, cudaStream_t s) {
  k_fill_u64<<<blocks_for(n), kThreads, 0, s>>>(p, n, v);
  check_launch();
}

void init_uniform(float* p, std::size_t n, float bound, std::uint64_t seed, cudaStream_t s) {
  k_uniform<<<blocks_for(n), kThreads, 0, s>>>(p, n, bound, seed);
  check_launch();
}

void fill_float(float* p, std::size_t n, float v, cudaStream_t s) {
  k_fill<<<blocks_for(n), kThreads, 0, s>>>(p, n, v);
  check_launch();
}

void cast_from_float(dtype t, const float* src, void* dst, std::size_t n, cudaStream_t s) {
  dispatch(t, [&](auto tag) {
    using E = typename decltype(tag)::type;
    k_from_float<<<blocks_for(n), kThreads, 0, s>>>(src, static_cast<E*>(dst), n);
  });
  check_launch();
}

void cast_to_float(dtype t, const void* src, float* dst, std::size_t n, cudaStream_t s) {
  dispatch(t, [&](auto tag) {
    using E = typename decltype(tag)::type;
    k_to_float<<<blocks_for(n), kThreads, 0, s>>>(static_cast<const E*>(src), dst, n);
  });
  check_launch();
}

void preprocess(dtype t, const preprocess_args& a, cudaStream_t s) {
  const std::size_t total = static_cast<std::size_t>(a.n) * a.d * a.h * a.w * a.c;
  dispatch(t, [&](auto tag) {
    using E = typename decltype(tag)::type;
    k_preprocess<<<blocks_for(total), kThreads, 0, s>>>(a, static_cast<E*>(a.out));
  });
  check_launch();
  if (!a.segmentation) {
    k_sample_labels<<<(a.n + 127) / 128, 128, 0, s>>>(a);
    check_launch();
  }
}

void relu_forward(dtype t, const void* x, void* y, std::size_t n, cudaStream_t s) {
  dispatch(t, [&](auto tag) { map<typename decltype(tag)::type>(x, nullptr, y, n, relu_op{}, s); });
}

void relu_backward(dtype t, const void* y, const void* dy, void* dx, std::size_t n, float beta,
                   cudaStream_t s) {
  dispatch(t, [&](auto tag) {
    map<typename decltype(tag)::type>(y, dy, dx, n, relu_back_op{beta, beta != 0.0f}, s);
  });
}

void add_forward(dtype t, const void* a, const void* b, void* y, std::size_t n, cudaStream_t s) {
  dispatch(t, [&](auto tag) { map<typename decltype(tag)::type>(a, b, y, n, add_op{}, s); });
}

void accumulate(dtype t, const void* src, void* dst, std::size_t n, float beta, cudaStream_t s) {
  dispatch(t, [&](auto tag) {
    map<typename decltype(tag)::type>(src, nullptr, dst, n, accumulate_op{beta, beta != 0.0f}, s);
  });
}

void bias_add(dtype t, void* y, const float* bias, std::size_t rows, std::size_t c,
              cudaStream_t s) {
  dispatch(t, [&](auto tag) {
    using E = typename decltype(tag)::type;
    k_bias_add<<<blocks_for(rows * c), kThreads, 0, s>>>(static_cast<E*>(y), bias, rows, c);
  });
  check_launch();
}

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

void concat_forward(dtype t, const void* a, const void* b, void* y, std::size_t rows,
                    std::size_t ca, std::size_t cb, cudaStream_t s) {
  dispatch(t, [&](auto tag) {
    using E = typename decltype(tag)::type;
    k_concat<<<blocks_for(rows * (ca + cb)), kThreads, 0, s>>>(
        static_cast<const E*>(a), static_cast<const E*>(b), static_cast<E*>(y), rows, ca, cb);
  });
  check_launch();
}

void concat_backward(dtype t, const void* dy, void* da, void* db, std::size_t rows, std::size_t ca,
                     std::size_t cb, float beta_a, float beta_b, cudaStream_t s) {
  dispatch(t, [&](auto tag) {
    using E = typename decltype(tag)::type;
    k_split<<<blocks_for(rows * (ca + cb)), kThreads, 0, s>>>(
        static_cast<const E*>(dy), static_cast<E*>(da), static_cast<E*>(db), rows, ca, cb, beta_a,
        beta_b);
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

void check_finite(dtype t, const void* g, std::size_t n, int* flag, cudaStream_t s) {
  if (n == 0)
    return;
  dispatch(t, [&](auto tag) {
    using E = typename decltype(tag)::type;
    k_check_finite<<<blocks_for(n), kThreads, 0, s>>>(static_cast<const E*>(g), n, flag);
  });
  check_launch();
}

void sgd_update(dtype grad_type, const void* grad, float* master, void* work, dtype work_type,
                float* velocity, std::size_t n, float lr, float momentum, float wd, float grad_mult,
                const int* skip, cudaStream_t s) {
  if (n == 0)
    return;
  dispatch(grad_type, [&](auto gtag) {
    using G = typename decltype(gtag)::type;
    dispatch(work_type, [&](auto wtag) {
      using W = typename decltype(wtag)::type;
      k_sgd<<<blocks_for(n), kThreads, 0, s>>>(static_cast<const G*>(grad), master,
                                               static_cast<W*>(work), velocity, n, lr, momentum, wd,
                                               grad_mult, skip);
    });
  });
  check_launch();
}

} // namespace dlsize::cuda
