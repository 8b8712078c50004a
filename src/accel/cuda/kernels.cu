// Element-wise kernels of the module (declared in kernels.hpp): randomness and fills,
// preprocessing, ReLU, add and accumulation in 16-byte packs, bias, concat, and the optimizer.
// Straightforward grid-stride loops in fp32 arithmetic; correctness first.
#include "accel/cuda/kernel_common.cuh"

namespace dlsize::cuda {
namespace {

using namespace kernel_detail;

__global__ void k_random_bytes(std::uint8_t* p, std::size_t n, std::uint64_t seed) {
  GRID_LOOP(i, n) p[i] = static_cast<std::uint8_t>(mix(seed ^ (i * 0x2545f4914f6cdd1dull)) >> 56);
}

__global__ void k_fill_u64(std::uint64_t* p, std::size_t n, std::uint64_t v) {
  GRID_LOOP(i, n) p[i] = v;
}

__global__ void k_uniform(float* p, std::size_t n, float bound, std::uint64_t seed) {
  GRID_LOOP(i, n) {
    // The seed is hashed before the index enters, so that layers of neighbouring seeds do not
    // start as shifted copies of each other.
    const double u = static_cast<double>(mix(mix(seed) ^ (i * 0x9e3779b97f4a7c15ull)) >> 11) *
                     (1.0 / 9007199254740992.0);
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

// One thread per sample: its crop's offsets and its flip, from one hash, so that the
// per-element kernel reads them instead of hashing again for every element.
__global__ void k_sample_crops(preprocess_args a) {
  const std::uint32_t n = blockIdx.x * blockDim.x + threadIdx.x;
  if (n >= a.n)
    return;
  const std::uint64_t h = mix(a.seed ^ mix(a.step * 0x100000001b3ull + n));
  std::uint32_t* crop = a.crops + 4 * static_cast<std::size_t>(n);
  crop[0] = static_cast<std::uint32_t>(h % (a.sd - a.d + 1));
  crop[1] = static_cast<std::uint32_t>((h >> 16) % (a.sh - a.h + 1));
  crop[2] = static_cast<std::uint32_t>((h >> 32) % (a.sw - a.w + 1));
  crop[3] = static_cast<std::uint32_t>(h >> 63);
}

// I: the index type, 32 bits where the batch's elements and bytes allow (cheaper division).
template <typename T, typename I> __global__ void k_preprocess(preprocess_args a, T* out) {
  const I total = static_cast<I>(a.n) * a.d * a.h * a.w * a.c;
  const I step = static_cast<I>(gridDim.x) * blockDim.x;
  for (I idx = static_cast<I>(blockIdx.x) * blockDim.x + threadIdx.x; idx < total; idx += step) {
    I r = idx;
    const auto ci = static_cast<std::uint32_t>(r % a.c);
    r /= a.c;
    const auto x = static_cast<std::uint32_t>(r % a.w);
    r /= a.w;
    const auto y = static_cast<std::uint32_t>(r % a.h);
    r /= a.h;
    const auto z = static_cast<std::uint32_t>(r % a.d);
    const auto n = static_cast<std::uint32_t>(r / a.d);
    const std::uint32_t* crop = a.crops + 4 * static_cast<std::size_t>(n);
    const std::uint32_t sx = crop[3] ? crop[2] + a.w - 1 - x : crop[2] + x;
    const I src = ((static_cast<I>(crop[0] + z) * a.sh + (crop[1] + y)) * a.sw + sx) * a.c + ci;
    const auto len = static_cast<I>(a.lengths[n]);
    const std::uint8_t byte =
        len ? a.raw[static_cast<I>(n) * static_cast<I>(a.stride) + src % len] : 0;
    const float mean_rgb[3] = {0.485f, 0.456f, 0.406f}, std_rgb[3] = {0.229f, 0.224f, 0.225f};
    const float mean = a.c == 3 ? mean_rgb[ci] : 0.5f, sd = a.c == 3 ? std_rgb[ci] : 0.25f;
    st(out, idx, (byte * (1.0f / 255.0f) - mean) / sd);
    if (a.segmentation && ci == 0) {
      const I pos = idx / a.c;
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
  const std::size_t source = static_cast<std::size_t>(a.sd) * a.sh * a.sw * a.c;
  // 32-bit indices when every index, its grid-stride successor and every byte offset fit.
  const std::size_t limit = 1ull << 31;
  const bool narrow = total < limit && source < limit && a.stride * a.n < limit;
  k_sample_crops<<<(a.n + 127) / 128, 128, 0, s>>>(a);
  check_launch();
  dispatch(t, [&](auto tag) {
    using E = typename decltype(tag)::type;
    if (narrow)
      k_preprocess<E, std::uint32_t>
          <<<blocks_for(total), kThreads, 0, s>>>(a, static_cast<E*>(a.out));
    else
      k_preprocess<E, std::uint64_t>
          <<<blocks_for(total), kThreads, 0, s>>>(a, static_cast<E*>(a.out));
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
