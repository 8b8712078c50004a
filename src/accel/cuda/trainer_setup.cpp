// Building a trainer: the model checked again on the CPU, buffers, descriptors checked against
// cuDNN's own shape arithmetic and parameters; how each layer then runs is trainer_plan.cpp.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <utility>

#include "accel/cuda/check.hpp"
#include "accel/cuda/trainer.hpp"

namespace dlsize::cuda {
namespace {

std::string shape_text(std::uint64_t c, const std::vector<std::uint64_t>& s) {
  std::string t;
  for (auto d : s)
    t += std::to_string(d) + "x";
  return t + std::to_string(c);
}

std::uint64_t product(const std::vector<std::uint64_t>& v) {
  std::uint64_t p = 1;
  for (auto x : v)
    p *= x;
  return p;
}

std::size_t align(std::size_t b) {
  return (b + 255) / 256 * 256;
}

} // namespace

trainer::trainer(const dlsize_cuda_model& m, const dlsize_cuda_trainer_options& o)
    : m_opt(o), m_device(o.device) {
  if (o.struct_size != sizeof(dlsize_cuda_trainer_options))
    throw_bad("trainer options of " + std::to_string(o.struct_size) +
              " bytes; this module expects " + std::to_string(sizeof(dlsize_cuda_trainer_options)));
  if (o.batch_size < 1 || o.slots < 1 || o.sample_bytes_max < 1)
    throw_bad("batch size, slots and sample bytes must be at least 1");
  if (o.precision < DLSIZE_CUDA_FP16 || o.precision > DLSIZE_CUDA_FP32)
    throw_bad("unknown precision " + std::to_string(o.precision));
  int count = 0;
  DLSIZE_CUDA_CHECK(cudaGetDeviceCount(&count));
  if (o.device < 0 || o.device >= count)
    throw cuda_failure(DLSIZE_CUDA_NO_DEVICE, "no device " + std::to_string(o.device) +
                                                  ": this machine has " + std::to_string(count));
  DLSIZE_CUDA_CHECK(cudaSetDevice(m_device));
  cudaDeviceProp prop{};
  DLSIZE_CUDA_CHECK(cudaGetDeviceProperties(&prop, m_device));
  m_device_name = prop.name;
  char bus[32] = {};
  DLSIZE_CUDA_CHECK(cudaDeviceGetPCIBusId(bus, sizeof bus, m_device));
  m_pci = bus;
  const bool half = o.precision == DLSIZE_CUDA_FP16;
  m_dt = half ? dtype::f16 : dtype::f32;
  m_cudnn_dt = half ? CUDNN_DATA_HALF : CUDNN_DATA_FLOAT;
  m_es = half ? 2 : 4;
  m_loss_scale = half ? 65536.0f : 1.0f;
  m_n = o.batch_size;
  m_lr = static_cast<float>(o.learning_rate > 0 ? o.learning_rate : 0.1 * m_n / 256.0);
  // A constructor that throws runs no destructor: what was created so far is released here, so
  // a failed create (out of memory, an unsupported layer) leaks no stream or handle.
  try {
    build(m);
  } catch (...) {
    release();
    throw;
  }
}

void trainer::build(const dlsize_cuda_model& m) {
  const auto& o = m_opt;
  DLSIZE_CUDA_CHECK(cudaStreamCreateWithFlags(&m_compute, cudaStreamNonBlocking));
  DLSIZE_CUDA_CHECK(cudaStreamCreateWithFlags(&m_copy, cudaStreamNonBlocking));
  DLSIZE_CUDNN_CHECK(cudnnCreate(&m_cudnn));
  DLSIZE_CUDNN_CHECK(cudnnSetStream(m_cudnn, m_compute));
  DLSIZE_CUBLAS_CHECK(cublasCreate(&m_cublas));
  DLSIZE_CUBLAS_CHECK(cublasSetStream(m_cublas, m_compute));
  DLSIZE_CUBLAS_CHECK(
      cublasSetMathMode(m_cublas, o.precision == DLSIZE_CUDA_FP32   ? CUBLAS_PEDANTIC_MATH
                                  : o.precision == DLSIZE_CUDA_TF32 ? CUBLAS_TF32_TENSOR_OP_MATH
                                                                    : CUBLAS_DEFAULT_MATH));
  for (auto& e : m_ev)
    DLSIZE_CUDA_CHECK(cudaEventCreate(&e));
  const char* sync = std::getenv("DLSIZE_CUDA_SYNC");
  m_sync = sync != nullptr && std::strcmp(sync, "1") == 0;

  build_nodes(m);
  std::vector<param_range> ranges;
  for (const auto& n : m_nodes)
    ranges.push_back(n.params);
  m_params = std::make_unique<parameters>(ranges, m_dt, m_compute);
  m_params->init(o.seed, m_compute);
  if (m_params->count() != m.params)
    throw_bad("the module counts " + std::to_string(m_params->count()) + " parameters, the model " +
              std::to_string(m.params));
  allocate();
  describe();
  m_input = std::make_unique<input_stage>(o.slots, m_n, o.sample_bytes_max, m_copy);
  m_bn_workspace = plan_batch_norm();
  share_add_gradients();
  choose_algorithms();
  DLSIZE_CUDA_CHECK(cudaStreamSynchronize(m_compute));
}

trainer::~trainer() {
  release();
}

void trainer::release() noexcept {
  if (m_compute)
    DLSIZE_CUDA_WARN(cudaStreamSynchronize(m_compute));
  if (m_copy)
    DLSIZE_CUDA_WARN(cudaStreamSynchronize(m_copy));
  m_allreduce.reset();
  m_input.reset();
  for (auto& e : m_ev)
    if (e)
      DLSIZE_CUDA_WARN(cudaEventDestroy(std::exchange(e, nullptr)));
  for (auto& e : m_layer_ev)
    if (e)
      DLSIZE_CUDA_WARN(cudaEventDestroy(std::exchange(e, nullptr)));
  if (m_cublas)
    cublasDestroy(std::exchange(m_cublas, nullptr));
  if (m_cudnn)
    cudnnDestroy(std::exchange(m_cudnn, nullptr));
  if (m_copy)
    DLSIZE_CUDA_WARN(cudaStreamDestroy(std::exchange(m_copy, nullptr)));
  if (m_compute)
    DLSIZE_CUDA_WARN(cudaStreamDestroy(std::exchange(m_compute, nullptr)));
}

void trainer::make_current() const {
  DLSIZE_CUDA_CHECK(cudaSetDevice(m_device));
}

void trainer::build_nodes(const dlsize_cuda_model& m) {
  if (m.layer_count == 0 || m.layers == nullptr)
    throw_bad("the model has no layers");
  if (m.rank < 2 || m.rank > 3)
    throw_bad("the model input has " + std::to_string(m.rank) + " spatial dimensions");
  m_rank = m.rank;
  m_input_spatial.assign(m.input_spatial, m.input_spatial + m.rank);
  m_input_channels = m.input_channels;
  m_classes = m.classes;
  m_nodes = std::vector<node>(m.layer_count);
  std::size_t h = 0, f = 0;
  for (std::uint32_t i = 0; i < m.layer_count; ++i) {
    node& n = m_nodes[i];
    n.l = m.layers[i];
    const auto& l = n.l;
    const std::string at = "layer " + std::to_string(i);
    if (l.op < DLSIZE_CUDA_CONV || l.op > DLSIZE_CUDA_CONCAT)
      throw_bad(at + ": unknown op " + std::to_string(l.op));
    if (l.rank != m.rank)
      throw_bad(at + ": rank " + std::to_string(l.rank) + " differs from the input's");
    if (l.input < -1 || l.input >= static_cast<int32_t>(i) || l.other >= static_cast<int32_t>(i))
      throw_bad(at + ": reads a layer that is not before it");
    const bool two = l.op == DLSIZE_CUDA_ADD || l.op == DLSIZE_CUDA_CONCAT;
    if (two != (l.other >= 0))
      throw_bad(at + ": add and concat need a second input, other layers none");
    n.in_spatial.assign(l.in_spatial, l.in_spatial + m.rank);
    n.out_spatial.assign(l.out_spatial, l.out_spatial + m.rank);
    n.in_positions = product(n.in_spatial);
    n.out_positions = product(n.out_spatial);
    const std::uint64_t pc =
        l.input < 0 ? m.input_channels : m_nodes[static_cast<std::size_t>(l.input)].l.out_channels;
    const auto& ps =
        l.input < 0 ? m_input_spatial : m_nodes[static_cast<std::size_t>(l.input)].out_spatial;
    if (pc != l.in_channels || ps != n.in_spatial)
      throw_bad(at + ": input " + shape_text(l.in_channels, n.in_spatial) +
                " is not its producer's output " + shape_text(pc, ps));
    if (l.input >= 0)
      ++m_nodes[static_cast<std::size_t>(l.input)].consumers;
    if (l.other >= 0)
      ++m_nodes[static_cast<std::size_t>(l.other)].consumers;
    if ((l.op == DLSIZE_CUDA_BATCH_NORM || l.op == DLSIZE_CUDA_RELU ||
         l.op == DLSIZE_CUDA_MAX_POOL || two) &&
        l.input < 0)
      throw_bad(at + ": this module needs a convolution or fc layer first");
    if (l.op == DLSIZE_CUDA_CONCAT && l.input == l.other)
      throw_bad(at + ": concat of a tensor with itself");
    std::uint64_t kv = 1;
    for (std::uint32_t d = 0; d < m.rank; ++d)
      kv *= l.kernel;
    param_range& r = n.params;
    r.h_off = h;
    r.f_off = f;
    switch (l.op) {
    case DLSIZE_CUDA_CONV:
    case DLSIZE_CUDA_CONV_TRANSPOSE:
      r.h_len = kv * l.in_channels * l.out_channels;
      r.f_len = l.bias ? l.out_channels : 0;
      r.init_bound =
          std::sqrt(6.0f / static_cast<float>(
                               kv * (l.op == DLSIZE_CUDA_CONV ? l.in_channels : l.out_channels)));
      break;
    case DLSIZE_CUDA_FC:
      r.h_len = l.in_channels * n.in_positions * l.out_channels;
      r.f_len = l.bias ? l.out_channels : 0;
      r.init_bound = 1.0f / std::sqrt(static_cast<float>(l.in_channels * n.in_positions));
      break;
    case DLSIZE_CUDA_BATCH_NORM:
    case DLSIZE_CUDA_INSTANCE_NORM:
      r.f_len = 2 * l.in_channels;
      r.norm = true;
      break;
    default:
      break;
    }
    if (r.h_len + r.f_len != l.params)
      throw_bad(at + ": the module counts " + std::to_string(r.h_len + r.f_len) +
                " parameters, the model " + std::to_string(l.params));
    h += r.h_len;
    f += r.f_len;
  }
  const node& last = m_nodes.back();
  if (m_classes != last.l.out_channels || m_classes < 1)
    throw_bad("classes differ from the last layer's channels");
  m_segmentation = last.out_positions > 1;
  if (m_segmentation && last.out_spatial != m_input_spatial)
    throw_bad("the last layer keeps spatial extent but not the input's: per-position labels need "
              "both equal");
  for (std::size_t i = 0; i + 1 < m_nodes.size(); ++i)
    if (m_nodes[i].consumers == 0)
      throw_bad("layer " + std::to_string(i) + "'s output is used by no layer");
  // A ReLU works in place on a tensor only it reads, unless that tensor's backward needs it.
  for (auto& n : m_nodes)
    if (n.l.op == DLSIZE_CUDA_RELU && n.l.input >= 0) {
      const node& p = m_nodes[static_cast<std::size_t>(n.l.input)];
      n.in_place = p.consumers == 1 && p.l.op != DLSIZE_CUDA_MAX_POOL;
    }
}

void trainer::allocate() {
  std::vector<std::size_t> off(m_nodes.size(), 0);
  std::size_t total = 0, aux = 0, scratch = 0;
  for (std::size_t i = 0; i < m_nodes.size(); ++i) {
    const node& n = m_nodes[i];
    if (!n.in_place) {
      off[i] = total;
      total += 2 * align(m_n * n.l.out_channels * n.out_positions * m_es);
    }
    if (n.l.op == DLSIZE_CUDA_BATCH_NORM)
      aux += align(4 * n.l.out_channels * sizeof(float));
    if (n.l.op == DLSIZE_CUDA_INSTANCE_NORM) {
      aux += align(2 * m_n * n.l.out_channels * sizeof(float));
      scratch = std::max<std::size_t>(scratch, 2 * m_n * n.l.out_channels);
    }
  }
  m_act_bytes = total;
  m_acts = device_buffer(total, "activations and their gradients at batch " + std::to_string(m_n));
  m_aux = device_buffer(aux + align(scratch * sizeof(float)) + 256, "normalization statistics");
  auto* base = static_cast<char*>(m_acts.get());
  auto* abase = static_cast<char*>(m_aux.get());
  std::size_t at = 0;
  for (std::size_t i = 0; i < m_nodes.size(); ++i) {
    node& n = m_nodes[i];
    if (n.in_place) {
      const node& p = m_nodes[static_cast<std::size_t>(n.l.input)];
      n.y = p.y;
      n.dy = p.dy;
    } else {
      n.y = base + off[i];
      n.dy = base + off[i] + align(m_n * n.l.out_channels * n.out_positions * m_es);
    }
    if (n.l.op == DLSIZE_CUDA_BATCH_NORM) {
      n.stats = reinterpret_cast<float*>(abase + at);
      at += align(4 * n.l.out_channels * sizeof(float));
      fill_float(n.stats, n.l.out_channels, 0.0f, m_compute);
      fill_float(n.stats + n.l.out_channels, n.l.out_channels, 1.0f, m_compute);
    }
    if (n.l.op == DLSIZE_CUDA_INSTANCE_NORM) {
      n.stats = reinterpret_cast<float*>(abase + at);
      at += align(2 * m_n * n.l.out_channels * sizeof(float));
    }
  }
  m_scratch = reinterpret_cast<float*>(abase + at);
  m_x0 =
      device_buffer(m_n * m_input_channels * product(m_input_spatial) * m_es, "the input tensor");
  const std::size_t label_count = m_n * (m_segmentation ? m_nodes.back().out_positions : 1);
  m_labels = device_buffer(label_count * sizeof(std::int32_t), "labels");
  m_crops = device_buffer(4 * m_n * sizeof(std::uint32_t), "crops");
  m_small = device_buffer(256, "loss");
  m_host_small = pinned_buffer(256, "loss");
}

void trainer::describe() {
  const cudnnMathType_t math = m_opt.precision == DLSIZE_CUDA_FP16   ? CUDNN_TENSOR_OP_MATH
                               : m_opt.precision == DLSIZE_CUDA_TF32 ? CUDNN_DEFAULT_MATH
                                                                     : CUDNN_FMA_MATH;
  m_bn_mode = m_dt == dtype::f16 ? CUDNN_BATCHNORM_SPATIAL_PERSISTENT : CUDNN_BATCHNORM_SPATIAL;
  for (std::size_t i = 0; i < m_nodes.size(); ++i) {
    node& n = m_nodes[i];
    const auto& l = n.l;
    const std::string at = "layer " + std::to_string(i);
    // Only the layers cuDNN runs get descriptors: the others run in this module's kernels,
    // which take tensors past cuDNN's 2^31 elements.
    if (l.op != DLSIZE_CUDA_CONV && l.op != DLSIZE_CUDA_CONV_TRANSPOSE &&
        l.op != DLSIZE_CUDA_MAX_POOL && l.op != DLSIZE_CUDA_BATCH_NORM)
      continue;
    for (const auto& [channels, spatial] :
         {std::pair{l.in_channels, n.in_spatial}, std::pair{l.out_channels, n.out_spatial}}) {
      std::uint64_t elements = m_n * channels;
      for (const auto s : spatial)
        elements *= s;
      if (elements > 2147483647ull)
        throw_bad(at + ": a tensor of " + std::to_string(elements) + " elements at batch " +
                  std::to_string(m_n) + ", more than cuDNN takes (2^31 - 1). valid: a smaller " +
                  "--batch-size");
    }
    n.x_desc.set(m_cudnn_dt, m_n, l.in_channels, n.in_spatial);
    n.y_desc.set(m_cudnn_dt, m_n, l.out_channels, n.out_spatial);
    std::vector<int> dims(m_rank + 2);
    if (l.op == DLSIZE_CUDA_CONV || l.op == DLSIZE_CUDA_CONV_TRANSPOSE) {
      const bool t = l.op == DLSIZE_CUDA_CONV_TRANSPOSE;
      // A transposed convolution is the data gradient of a convolution from its output to its
      // input.
      n.w_desc.set(m_cudnn_dt, t ? l.in_channels : l.out_channels,
                   t ? l.out_channels : l.in_channels, l.kernel, m_rank);
      for (conv_desc* c : {&n.conv_main, &n.conv_dgrad, &n.conv_wgrad})
        c->set(m_rank, l.pad, l.stride, l.dilation, math);
      DLSIZE_CUDNN_CHECK(cudnnGetConvolutionNdForwardOutputDim(
          n.conv_main.d, t ? n.y_desc.d : n.x_desc.d, n.w_desc.d, static_cast<int>(dims.size()),
          dims.data()));
      const std::uint64_t want_c = t ? l.in_channels : l.out_channels;
      const auto& want_s = t ? n.in_spatial : n.out_spatial;
      std::vector<std::uint64_t> got(dims.begin() + 2, dims.end());
      if (static_cast<std::uint64_t>(dims[1]) != want_c || got != want_s)
        throw_bad(at + ": cuDNN computes " + shape_text(static_cast<std::uint64_t>(dims[1]), got) +
                  " where the model has " + shape_text(want_c, want_s));
    }
    if (l.op == DLSIZE_CUDA_MAX_POOL) {
      n.pool.set_max(m_rank, l.kernel, l.pad, l.stride);
      DLSIZE_CUDNN_CHECK(cudnnGetPoolingNdForwardOutputDim(
          n.pool.d, n.x_desc.d, static_cast<int>(dims.size()), dims.data()));
      std::vector<std::uint64_t> got(dims.begin() + 2, dims.end());
      if (got != n.out_spatial)
        throw_bad(at + ": cuDNN pools to " + shape_text(l.out_channels, got) +
                  " where the model has " + shape_text(l.out_channels, n.out_spatial));
    }
    if (l.op == DLSIZE_CUDA_BATCH_NORM)
      DLSIZE_CUDNN_CHECK(cudnnDeriveBNTensorDescriptor(n.bn_desc.d, n.x_desc.d, m_bn_mode));
  }
}

std::string trainer::layer_shape(const node& n) const {
  static const char* const names[] = {"conv", "conv_transpose", "batch_norm",      "instance_norm",
                                      "relu", "max_pool",       "global_avg_pool", "fc",
                                      "add",  "concat"};
  static_assert(sizeof names / sizeof names[0] == DLSIZE_CUDA_OP_KINDS);
  const auto& l = n.l;
  std::string t = std::string(names[l.op]) + " " + shape_text(l.in_channels, n.in_spatial) +
                  " to " + shape_text(l.out_channels, n.out_spatial);
  if (l.op == DLSIZE_CUDA_CONV || l.op == DLSIZE_CUDA_CONV_TRANSPOSE)
    t += " k" + std::to_string(l.kernel) + " s" + std::to_string(l.stride) + " p" +
         std::to_string(l.pad) + " d" + std::to_string(l.dilation);
  return t;
}

void trainer::info(dlsize_cuda_trainer_info& out) const {
  out = {};
  std::snprintf(out.device_name, sizeof out.device_name, "%s", m_device_name.c_str());
  std::snprintf(out.pci_bus_id, sizeof out.pci_bus_id, "%s", m_pci.c_str());
  out.params = m_params->count();
  out.activation_bytes = m_act_bytes;
  out.weight_bytes = m_params->bytes();
  out.workspace_bytes = m_workspace.bytes();
  out.staging_bytes = m_input->pinned_bytes();
  std::size_t free = 0, total = 0;
  if (cudaMemGetInfo(&free, &total) == cudaSuccess)
    out.device_memory_used = total - free;
  out.slots = m_opt.slots;
  out.buckets = m_allreduce ? static_cast<std::uint32_t>(m_allreduce->buckets()) : 0;
}

} // namespace dlsize::cuda
