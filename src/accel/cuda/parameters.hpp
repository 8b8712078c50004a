#pragma once
// The trainable parameters in two groups, each one contiguous so that it can be allreduced in
// ranges: the weights of convolutions and fc layers (fp32 master copies, a working copy in the
// activation type that cuDNN and cuBLAS read, gradients in the activation type) and the small
// fp32 parameters (biases, norm scale and shift, with fp32 gradients). Both have fp32 momentum.
#include <cuda_runtime.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "accel/cuda/device_memory.hpp"
#include "accel/cuda/kernels.hpp"

namespace dlsize::cuda {

// Where a layer's parameters are: weights in the weight group, the rest in the fp32 group.
struct param_range {
  std::size_t h_off = 0, h_len = 0;
  std::size_t f_off = 0, f_len = 0;
  float init_bound = 0; // weights: uniform in +-bound
  bool norm = false;    // f: scale (1) then shift (0); else bias (0)
};

class parameters {
public:
  parameters(std::vector<param_range> layers, dtype act, cudaStream_t s);
  void init(std::uint64_t seed, cudaStream_t s);

  const void* weights(const param_range& r) const; // working copy, activation type
  void* weight_grads(const param_range& r) const;
  const float* small(const param_range& r) const { return m_f.as<float>() + r.f_off; }
  float* small_grads(const param_range& r) const { return m_fg.as<float>() + r.f_off; }

  // Sets *flag when a gradient is not finite; then updates unless *flag (on the device).
  void check(int* flag, cudaStream_t s) const;
  void sgd(float lr, float momentum, float wd, float grad_mult, const int* skip, cudaStream_t s);

  std::size_t count() const { return m_nh + m_nf; }
  std::size_t weight_count() const { return m_nh; }
  std::size_t small_count() const { return m_nf; }
  std::size_t bytes() const;
  void* weight_grad_base() const { return m_hg.get(); }
  float* small_grad_base() const { return m_fg.as<float>(); }

  // Layer order, weights then the fp32 group's part; synchronous. read_grads divides by scale.
  std::vector<float> read(cudaStream_t s) const;
  void write(const std::vector<float>& v, cudaStream_t s);
  std::vector<float> read_grads(float scale, cudaStream_t s) const;

private:
  std::vector<float> gather(const float* h, const float* f, cudaStream_t s) const;
  std::vector<param_range> m_layers;
  dtype m_act;
  std::size_t m_nh = 0, m_nf = 0;
  device_buffer m_hm, m_hw, m_hg, m_hv; // weights: master, working, grads, momentum
  device_buffer m_f, m_fg, m_fv;        // fp32 group: values, grads, momentum
};

} // namespace dlsize::cuda
