#pragma once
// Owned cuDNN descriptors for channels-last (NHWC, NDHWC) tensors with 2 or 3 spatial
// dimensions, and the candidate convolution algorithms: cuDNN's heuristics (_v7 getters) or a
// timed search (Find...Ex) once per distinct convolution, within a workspace limit.
#include <cudnn.h>

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace dlsize::cuda {

struct tensor_desc {
  cudnnTensorDescriptor_t d = nullptr;
  tensor_desc();
  ~tensor_desc();
  tensor_desc(const tensor_desc&) = delete;
  tensor_desc& operator=(const tensor_desc&) = delete;
  // dims: samples, channels, spatial (D, H, W or H, W), laid out channels-last.
  void set(cudnnDataType_t t, std::uint64_t n, std::uint64_t c,
           const std::vector<std::uint64_t>& spatial);
};

struct filter_desc {
  cudnnFilterDescriptor_t d = nullptr;
  filter_desc();
  ~filter_desc();
  filter_desc(const filter_desc&) = delete;
  filter_desc& operator=(const filter_desc&) = delete;
  // k output channels, c input channels, a cube of kernel in rank dimensions, channels-last.
  void set(cudnnDataType_t t, std::uint64_t k, std::uint64_t c, std::uint64_t kernel,
           std::size_t rank);
};

struct conv_desc {
  cudnnConvolutionDescriptor_t d = nullptr;
  conv_desc();
  ~conv_desc();
  conv_desc(const conv_desc&) = delete;
  conv_desc& operator=(const conv_desc&) = delete;
  void set(std::size_t rank, std::uint64_t pad, std::uint64_t stride, std::uint64_t dilation,
           cudnnMathType_t math);
};

struct pool_desc {
  cudnnPoolingDescriptor_t d = nullptr;
  pool_desc();
  ~pool_desc();
  pool_desc(const pool_desc&) = delete;
  pool_desc& operator=(const pool_desc&) = delete;
  void set_max(std::size_t rank, std::uint64_t window, std::uint64_t pad, std::uint64_t stride);
};

// ReLU, for batch norm fused with its activation (cudnnBatchNormalization*Ex).
struct activation_desc {
  cudnnActivationDescriptor_t d = nullptr;
  activation_desc();
  ~activation_desc();
  activation_desc(const activation_desc&) = delete;
  activation_desc& operator=(const activation_desc&) = delete;
};

// A chosen algorithm: its number, the math type it needs and its workspace.
struct conv_choice {
  int algo = 0;
  cudnnMathType_t math = CUDNN_DEFAULT_MATH;
  std::size_t workspace = 0;
};

class conv_planner {
public:
  // search: time the algorithms (needs workspace and real buffers); else heuristics.
  conv_planner(cudnnHandle_t h, bool search, std::size_t workspace_limit);
  void set_workspace(void* ws, std::size_t bytes) {
    m_ws = ws;
    m_ws_bytes = bytes;
  }
  // The algorithms that fit the workspace limit, best first; throws when there is none. The
  // first is not always usable (cuDNN can refuse it when it runs, with beta 1 say): the trainer
  // runs each once and falls back down the list. key names the convolution for the cache.
  const std::vector<conv_choice>& forward(const std::string& key, const tensor_desc& x,
                                          const void* xp, const filter_desc& w, const void* wp,
                                          const conv_desc& conv, const tensor_desc& y, void* yp);
  const std::vector<conv_choice>& backward_data(const std::string& key, const filter_desc& w,
                                                const void* wp, const tensor_desc& dy,
                                                const void* dyp, const conv_desc& conv,
                                                const tensor_desc& dx, void* dxp);
  const std::vector<conv_choice>& backward_filter(const std::string& key, const tensor_desc& x,
                                                  const void* xp, const tensor_desc& dy,
                                                  const void* dyp, const conv_desc& conv,
                                                  const filter_desc& dw, void* dwp);

private:
  cudnnHandle_t m_h;
  bool m_search;
  std::size_t m_limit;
  void* m_ws = nullptr;
  std::size_t m_ws_bytes = 0;
  std::map<std::string, std::vector<conv_choice>> m_cache;
};

} // namespace dlsize::cuda
