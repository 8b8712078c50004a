#include "accel/cuda/parameters.hpp"

#include <algorithm>

#include "accel/cuda/check.hpp"

namespace dlsize::cuda {
namespace {

std::size_t elem(dtype t) {
  return t == dtype::f16 ? 2 : 4;
}

} // namespace

parameters::parameters(std::vector<param_range> layers, dtype act, cudaStream_t)
    : m_layers(std::move(layers)), m_act(act) {
  for (const auto& r : m_layers) {
    m_nh = std::max(m_nh, r.h_off + r.h_len);
    m_nf = std::max(m_nf, r.f_off + r.f_len);
  }
  m_hm = device_buffer(m_nh * 4, "weights");
  if (act == dtype::f16)
    m_hw = device_buffer(m_nh * 2, "weights (half copy)");
  m_hg = device_buffer(m_nh * elem(act), "weight gradients");
  m_hv = device_buffer(m_nh * 4, "weight momentum");
  m_f = device_buffer(m_nf * 4, "norm parameters and biases");
  m_fg = device_buffer(m_nf * 4, "their gradients");
  m_fv = device_buffer(m_nf * 4, "their momentum");
}

std::size_t parameters::bytes() const {
  return m_hm.bytes() + m_hw.bytes() + m_hg.bytes() + m_hv.bytes() + m_f.bytes() + m_fg.bytes() +
         m_fv.bytes();
}

void parameters::init(std::uint64_t seed, cudaStream_t s) {
  std::uint64_t k = 0;
  for (const auto& r : m_layers) {
    ++k;
    if (r.h_len)
      init_uniform(m_hm.as<float>() + r.h_off, r.h_len, r.init_bound, seed * 1000003 + k, s);
    if (r.f_len == 0)
      continue;
    if (r.norm) {
      fill_float(m_f.as<float>() + r.f_off, r.f_len / 2, 1.0f, s);
      fill_float(m_f.as<float>() + r.f_off + r.f_len / 2, r.f_len / 2, 0.0f, s);
    } else {
      fill_float(m_f.as<float>() + r.f_off, r.f_len, 0.0f, s);
    }
  }
  if (m_nh)
    fill_float(m_hv.as<float>(), m_nh, 0.0f, s);
  if (m_nf)
    fill_float(m_fv.as<float>(), m_nf, 0.0f, s);
  if (m_act == dtype::f16 && m_nh)
    cast_from_float(dtype::f16, m_hm.as<float>(), m_hw.get(), m_nh, s);
}

const void* parameters::weights(const param_range& r) const {
  if (m_act == dtype::f16)
    return m_hw.as<std::uint16_t>() + r.h_off;
  return m_hm.as<float>() + r.h_off;
}

void* parameters::weight_grads(const param_range& r) const {
  return static_cast<char*>(m_hg.get()) + r.h_off * elem(m_act);
}

void parameters::check(int* flag, cudaStream_t s) const {
  check_finite(m_act, m_hg.get(), m_nh, flag, s);
  check_finite(dtype::f32, m_fg.get(), m_nf, flag, s);
}

void parameters::sgd(float lr, float momentum, float wd, float grad_mult, const int* skip,
                     cudaStream_t s) {
  void* work = m_act == dtype::f16 ? m_hw.get() : nullptr;
  sgd_update(m_act, m_hg.get(), m_hm.as<float>(), work, m_act, m_hv.as<float>(), m_nh, lr, momentum,
             wd, grad_mult, skip, s);
  sgd_update(dtype::f32, m_fg.get(), m_f.as<float>(), nullptr, dtype::f32, m_fv.as<float>(), m_nf,
             lr, momentum, wd, grad_mult, skip, s);
}

std::vector<float> parameters::gather(const float* h, const float* f, cudaStream_t s) const {
  std::vector<float> hh(m_nh), ff(m_nf);
  if (m_nh)
    DLSIZE_CUDA_CHECK(cudaMemcpyAsync(hh.data(), h, m_nh * 4, cudaMemcpyDeviceToHost, s));
  if (m_nf)
    DLSIZE_CUDA_CHECK(cudaMemcpyAsync(ff.data(), f, m_nf * 4, cudaMemcpyDeviceToHost, s));
  DLSIZE_CUDA_CHECK(cudaStreamSynchronize(s));
  std::vector<float> out;
  out.reserve(count());
  for (const auto& r : m_layers) {
    out.insert(out.end(), hh.begin() + static_cast<std::ptrdiff_t>(r.h_off),
               hh.begin() + static_cast<std::ptrdiff_t>(r.h_off + r.h_len));
    out.insert(out.end(), ff.begin() + static_cast<std::ptrdiff_t>(r.f_off),
               ff.begin() + static_cast<std::ptrdiff_t>(r.f_off + r.f_len));
  }
  return out;
}

std::vector<float> parameters::read(cudaStream_t s) const {
  return gather(m_hm.as<float>(), m_f.as<float>(), s);
}

std::vector<float> parameters::read_grads(float scale, cudaStream_t s) const {
  device_buffer tmp(m_nh * 4, "gradient copy");
  if (m_nh)
    cast_to_float(m_act, m_hg.get(), tmp.as<float>(), m_nh, s);
  std::vector<float> g = gather(tmp.as<float>(), m_fg.as<float>(), s);
  for (auto& v : g)
    v /= scale;
  return g;
}

void parameters::write(const std::vector<float>& v, cudaStream_t s) {
  if (v.size() != count())
    throw_bad(std::to_string(v.size()) + " parameters given, the model has " +
              std::to_string(count()));
  std::vector<float> hh(m_nh), ff(m_nf);
  std::size_t at = 0;
  for (const auto& r : m_layers) {
    std::copy_n(v.begin() + static_cast<std::ptrdiff_t>(at), r.h_len,
                hh.begin() + static_cast<std::ptrdiff_t>(r.h_off));
    at += r.h_len;
    std::copy_n(v.begin() + static_cast<std::ptrdiff_t>(at), r.f_len,
                ff.begin() + static_cast<std::ptrdiff_t>(r.f_off));
    at += r.f_len;
  }
  if (m_nh)
    DLSIZE_CUDA_CHECK(cudaMemcpyAsync(m_hm.get(), hh.data(), m_nh * 4, cudaMemcpyHostToDevice, s));
  if (m_nf)
    DLSIZE_CUDA_CHECK(cudaMemcpyAsync(m_f.get(), ff.data(), m_nf * 4, cudaMemcpyHostToDevice, s));
  if (m_act == dtype::f16 && m_nh)
    cast_from_float(dtype::f16, m_hm.as<float>(), m_hw.get(), m_nh, s);
  DLSIZE_CUDA_CHECK(cudaStreamSynchronize(s));
}

} // namespace dlsize::cuda
