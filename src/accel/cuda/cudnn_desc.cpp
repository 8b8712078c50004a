#include "accel/cuda/cudnn_desc.hpp"

#include <string>

#include "accel/cuda/check.hpp"

namespace dlsize::cuda {
namespace {

std::vector<int> as_int(const std::vector<std::uint64_t>& v) {
  std::vector<int> out;
  for (auto x : v) {
    if (x > 0x7fffffffull)
      throw_bad("a tensor dimension of " + std::to_string(x) + " exceeds cuDNN's int range");
    out.push_back(static_cast<int>(x));
  }
  return out;
}

// The usable results in cuDNN's order: by time (search) or by expected speed (heuristics).
template <typename Perf>
std::vector<conv_choice> usable(const Perf* perf, int returned, std::size_t limit,
                                const std::string& key) {
  std::vector<conv_choice> out;
  for (int i = 0; i < returned; ++i)
    if (perf[i].status == CUDNN_STATUS_SUCCESS && perf[i].memory <= limit)
      out.push_back({static_cast<int>(perf[i].algo), perf[i].mathType, perf[i].memory});
  if (out.empty())
    throw cuda_failure(DLSIZE_CUDA_FAILED, "cuDNN offers no algorithm for " + key +
                                               " within a workspace of " +
                                               std::to_string(limit >> 20) + " MiB");
  return out;
}

} // namespace

tensor_desc::tensor_desc() {
  DLSIZE_CUDNN_CHECK(cudnnCreateTensorDescriptor(&d));
}
tensor_desc::~tensor_desc() {
  cudnnDestroyTensorDescriptor(d);
}
void tensor_desc::set(cudnnDataType_t t, std::uint64_t n, std::uint64_t c,
                      const std::vector<std::uint64_t>& spatial) {
  std::vector<std::uint64_t> dims = {n, c};
  dims.insert(dims.end(), spatial.begin(), spatial.end());
  const auto v = as_int(dims);
  DLSIZE_CUDNN_CHECK(
      cudnnSetTensorNdDescriptorEx(d, CUDNN_TENSOR_NHWC, t, static_cast<int>(v.size()), v.data()));
}

filter_desc::filter_desc() {
  DLSIZE_CUDNN_CHECK(cudnnCreateFilterDescriptor(&d));
}
filter_desc::~filter_desc() {
  cudnnDestroyFilterDescriptor(d);
}
void filter_desc::set(cudnnDataType_t t, std::uint64_t k, std::uint64_t c, std::uint64_t kernel,
                      std::size_t rank) {
  std::vector<std::uint64_t> dims = {k, c};
  dims.insert(dims.end(), rank, kernel);
  const auto v = as_int(dims);
  DLSIZE_CUDNN_CHECK(
      cudnnSetFilterNdDescriptor(d, t, CUDNN_TENSOR_NHWC, static_cast<int>(v.size()), v.data()));
}

conv_desc::conv_desc() {
  DLSIZE_CUDNN_CHECK(cudnnCreateConvolutionDescriptor(&d));
}
conv_desc::~conv_desc() {
  cudnnDestroyConvolutionDescriptor(d);
}
void conv_desc::set(std::size_t rank, std::uint64_t pad, std::uint64_t stride,
                    std::uint64_t dilation, cudnnMathType_t math) {
  const auto p = as_int(std::vector<std::uint64_t>(rank, pad));
  const auto s = as_int(std::vector<std::uint64_t>(rank, stride));
  const auto dl = as_int(std::vector<std::uint64_t>(rank, dilation));
  // Accumulation in fp32 for half and float data alike.
  DLSIZE_CUDNN_CHECK(cudnnSetConvolutionNdDescriptor(d, static_cast<int>(rank), p.data(), s.data(),
                                                     dl.data(), CUDNN_CROSS_CORRELATION,
                                                     CUDNN_DATA_FLOAT));
  DLSIZE_CUDNN_CHECK(cudnnSetConvolutionMathType(d, math));
}

pool_desc::pool_desc() {
  DLSIZE_CUDNN_CHECK(cudnnCreatePoolingDescriptor(&d));
}
pool_desc::~pool_desc() {
  cudnnDestroyPoolingDescriptor(d);
}
void pool_desc::set_max(std::size_t rank, std::uint64_t window, std::uint64_t pad,
                        std::uint64_t stride) {
  const auto w = as_int(std::vector<std::uint64_t>(rank, window));
  const auto p = as_int(std::vector<std::uint64_t>(rank, pad));
  const auto s = as_int(std::vector<std::uint64_t>(rank, stride));
  DLSIZE_CUDNN_CHECK(cudnnSetPoolingNdDescriptor(d, CUDNN_POOLING_MAX, CUDNN_PROPAGATE_NAN,
                                                 static_cast<int>(rank), w.data(), p.data(),
                                                 s.data()));
}

activation_desc::activation_desc() {
  DLSIZE_CUDNN_CHECK(cudnnCreateActivationDescriptor(&d));
  DLSIZE_CUDNN_CHECK(
      cudnnSetActivationDescriptor(d, CUDNN_ACTIVATION_RELU, CUDNN_PROPAGATE_NAN, 0.0));
}
activation_desc::~activation_desc() {
  cudnnDestroyActivationDescriptor(d);
}

conv_planner::conv_planner(cudnnHandle_t h, bool search, std::size_t workspace_limit)
    : m_h(h), m_search(search), m_limit(workspace_limit) {}

const std::vector<conv_choice>& conv_planner::forward(const std::string& key, const tensor_desc& x,
                                                      const void* xp, const filter_desc& w,
                                                      const void* wp, const conv_desc& conv,
                                                      const tensor_desc& y, void* yp) {
  auto it = m_cache.find("fwd " + key);
  if (it == m_cache.end()) {
    int max = 0, returned = 0;
    DLSIZE_CUDNN_CHECK(cudnnGetConvolutionForwardAlgorithmMaxCount(m_h, &max));
    std::vector<cudnnConvolutionFwdAlgoPerf_t> perf(static_cast<std::size_t>(max));
    if (m_search)
      DLSIZE_CUDNN_CHECK(cudnnFindConvolutionForwardAlgorithmEx(
          m_h, x.d, xp, w.d, wp, conv.d, y.d, yp, max, &returned, perf.data(), m_ws, m_ws_bytes));
    else
      DLSIZE_CUDNN_CHECK(cudnnGetConvolutionForwardAlgorithm_v7(m_h, x.d, w.d, conv.d, y.d, max,
                                                                &returned, perf.data()));
    it = m_cache
             .emplace("fwd " + key,
                      usable(perf.data(), returned, m_limit, "the forward pass of " + key))
             .first;
  }
  return it->second;
}

const std::vector<conv_choice>& conv_planner::backward_data(const std::string& key,
                                                            const filter_desc& w, const void* wp,
                                                            const tensor_desc& dy, const void* dyp,
                                                            const conv_desc& conv,
                                                            const tensor_desc& dx, void* dxp) {
  auto it = m_cache.find("bwd-data " + key);
  if (it == m_cache.end()) {
    int max = 0, returned = 0;
    DLSIZE_CUDNN_CHECK(cudnnGetConvolutionBackwardDataAlgorithmMaxCount(m_h, &max));
    std::vector<cudnnConvolutionBwdDataAlgoPerf_t> perf(static_cast<std::size_t>(max));
    if (m_search)
      DLSIZE_CUDNN_CHECK(cudnnFindConvolutionBackwardDataAlgorithmEx(
          m_h, w.d, wp, dy.d, dyp, conv.d, dx.d, dxp, max, &returned, perf.data(), m_ws,
          m_ws_bytes));
    else
      DLSIZE_CUDNN_CHECK(cudnnGetConvolutionBackwardDataAlgorithm_v7(m_h, w.d, dy.d, conv.d, dx.d,
                                                                     max, &returned, perf.data()));
    it = m_cache
             .emplace("bwd-data " + key,
                      usable(perf.data(), returned, m_limit, "the data gradient of " + key))
             .first;
  }
  return it->second;
}

const std::vector<conv_choice>&
conv_planner::backward_filter(const std::string& key, const tensor_desc& x, const void* xp,
                              const tensor_desc& dy, const void* dyp, const conv_desc& conv,
                              const filter_desc& dw, void* dwp) {
  auto it = m_cache.find("bwd-filter " + key);
  if (it == m_cache.end()) {
    int max = 0, returned = 0;
    DLSIZE_CUDNN_CHECK(cudnnGetConvolutionBackwardFilterAlgorithmMaxCount(m_h, &max));
    std::vector<cudnnConvolutionBwdFilterAlgoPerf_t> perf(static_cast<std::size_t>(max));
    if (m_search)
      DLSIZE_CUDNN_CHECK(cudnnFindConvolutionBackwardFilterAlgorithmEx(
          m_h, x.d, xp, dy.d, dyp, conv.d, dw.d, dwp, max, &returned, perf.data(), m_ws,
          m_ws_bytes));
    else
      DLSIZE_CUDNN_CHECK(cudnnGetConvolutionBackwardFilterAlgorithm_v7(
          m_h, x.d, dy.d, conv.d, dw.d, max, &returned, perf.data()));
    it = m_cache
             .emplace("bwd-filter " + key,
                      usable(perf.data(), returned, m_limit, "the filter gradient of " + key))
             .first;
  }
  return it->second;
}

} // namespace dlsize::cuda
