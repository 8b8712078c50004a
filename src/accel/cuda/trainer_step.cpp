// One training step: preprocessing, the forward pass, the loss, the backward pass with the
// gradient allreduce, and the update, timed with CUDA events on the compute stream.
#include <cmath>
#include <cstring>
#include <string>

#include "accel/cuda/check.hpp"
#include "accel/cuda/trainer.hpp"

namespace dlsize::cuda {
namespace {

const float kOne = 1.0f, kZero = 0.0f;
constexpr double kBnMomentum = 0.1;
constexpr double kEps = 1e-5;

} // namespace

const void* trainer::input_of(const node& n) const {
  return n.l.input < 0 ? m_x0.get() : m_nodes[static_cast<std::size_t>(n.l.input)].y;
}

const void* trainer::other_of(const node& n) const {
  return m_nodes[static_cast<std::size_t>(n.l.other)].y;
}

void* trainer::grad_target(int idx, float& beta) {
  if (idx < 0)
    return nullptr; // the model input needs no gradient
  const auto i = static_cast<std::size_t>(idx);
  beta = m_written[i] ? 1.0f : 0.0f;
  m_written[i] = true;
  return m_nodes[i].dy;
}

// Row-major [batch][in] x [out][in]^T = [batch][out], in cuBLAS's column-major terms.
void trainer::fc(const node& n, bool backward) {
  const int batch = static_cast<int>(m_n);
  const int in = static_cast<int>(n.l.in_channels * n.in_positions),
            out = static_cast<int>(n.l.out_channels);
  const cudaDataType_t t = m_dt == dtype::f16 ? CUDA_R_16F : CUDA_R_32F;
  const cublasComputeType_t ct = m_opt.precision == DLSIZE_CUDA_TF32 ? CUBLAS_COMPUTE_32F_FAST_TF32
                                 : m_opt.precision == DLSIZE_CUDA_FP32 ? CUBLAS_COMPUTE_32F_PEDANTIC
                                                                       : CUBLAS_COMPUTE_32F;
  const void* w = m_params->weights(n.params);
  if (!backward) {
    DLSIZE_CUBLAS_CHECK(cublasGemmEx(m_cublas, CUBLAS_OP_T, CUBLAS_OP_N, out, batch, in, &kOne, w,
                                     t, in, input_of(n), t, in, &kZero, n.y, t, out, ct,
                                     CUBLAS_GEMM_DEFAULT));
    if (n.l.bias)
      bias_add(m_dt, n.y, m_params->small(n.params), m_n, n.l.out_channels, m_compute);
    return;
  }
  DLSIZE_CUBLAS_CHECK(cublasGemmEx(
      m_cublas, CUBLAS_OP_N, CUBLAS_OP_T, in, out, batch, &kOne, input_of(n), t, in, n.dy, t, out,
      &kZero, m_params->weight_grads(n.params), t, in, ct, CUBLAS_GEMM_DEFAULT));
  if (n.l.bias)
    channel_sum(m_dt, n.dy, m_params->small_grads(n.params), 1, m_n, n.l.out_channels, m_compute);
  float beta = 0;
  if (void* dx = grad_target(n.l.input, beta))
    DLSIZE_CUBLAS_CHECK(cublasGemmEx(m_cublas, CUBLAS_OP_N, CUBLAS_OP_N, in, batch, out, &kOne, w,
                                     t, in, n.dy, t, out, &beta, dx, t, in, ct,
                                     CUBLAS_GEMM_DEFAULT));
}

// A transposed convolution's forward pass is a convolution's data gradient and its data
// gradient a convolution's forward pass; the filter gradient swaps x and dy.
void trainer::conv_call(const node& n, conv_pass p, int algo, float beta, void* dx, void* ws,
                        std::size_t wsb) {
  const bool t = n.l.op == DLSIZE_CUDA_CONV_TRANSPOSE;
  const void* x = input_of(n);
  const void* w = m_params->weights(n.params);
  switch (p) {
  case conv_pass::main:
    if (!t)
      DLSIZE_CUDNN_CHECK(cudnnConvolutionForward(
          m_cudnn, &kOne, n.x_desc.d, x, n.w_desc.d, w, n.conv_main.d,
          static_cast<cudnnConvolutionFwdAlgo_t>(algo), ws, wsb, &kZero, n.y_desc.d, n.y));
    else
      DLSIZE_CUDNN_CHECK(cudnnConvolutionBackwardData(
          m_cudnn, &kOne, n.w_desc.d, w, n.x_desc.d, x, n.conv_main.d,
          static_cast<cudnnConvolutionBwdDataAlgo_t>(algo), ws, wsb, &kZero, n.y_desc.d, n.y));
    return;
  case conv_pass::wgrad:
    DLSIZE_CUDNN_CHECK(cudnnConvolutionBackwardFilter(
        m_cudnn, &kOne, t ? n.y_desc.d : n.x_desc.d, t ? n.dy : x, t ? n.x_desc.d : n.y_desc.d,
        t ? x : n.dy, n.conv_wgrad.d, static_cast<cudnnConvolutionBwdFilterAlgo_t>(algo), ws, wsb,
        &kZero, n.w_desc.d, m_params->weight_grads(n.params)));
    return;
  case conv_pass::dgrad:
    if (!t)
      DLSIZE_CUDNN_CHECK(cudnnConvolutionBackwardData(
          m_cudnn, &kOne, n.w_desc.d, w, n.y_desc.d, n.dy, n.conv_dgrad.d,
          static_cast<cudnnConvolutionBwdDataAlgo_t>(algo), ws, wsb, &beta, n.x_desc.d, dx));
    else
      DLSIZE_CUDNN_CHECK(cudnnConvolutionForward(
          m_cudnn, &kOne, n.y_desc.d, n.dy, n.w_desc.d, w, n.conv_dgrad.d,
          static_cast<cudnnConvolutionFwdAlgo_t>(algo), ws, wsb, &beta, n.x_desc.d, dx));
    return;
  }
}

void trainer::run_layer(std::size_t i, bool back, bool time_ops) {
  cudaEvent_t* ev = time_ops ? &m_layer_ev[4 * i + (back ? 2 : 0)] : nullptr;
  try {
    if (ev)
      DLSIZE_CUDA_CHECK(cudaEventRecord(ev[0], m_compute));
    if (back)
      backward(i);
    else
      forward(i);
    if (ev)
      DLSIZE_CUDA_CHECK(cudaEventRecord(ev[1], m_compute));
    if (m_sync)
      DLSIZE_CUDA_CHECK(cudaStreamSynchronize(m_compute));
  } catch (const cuda_failure& e) {
    const node& n = m_nodes[i];
    const std::string fused =
        n.fused_bn >= 0 ? ", running batch norm layer " + std::to_string(n.fused_bn) + " fused"
                        : "";
    throw cuda_failure(e.code(), "layer " + std::to_string(i) + " (" + layer_shape(n) + fused +
                                     ", batch " + std::to_string(m_n) +
                                     (back ? "), backward: " : "), forward: ") + e.what());
  }
}

void trainer::batch_norm_forward(std::size_t i) {
  const node& b = m_nodes[i];
  const std::size_t c = b.l.out_channels;
  const float* sb = m_params->small(b.params);
  const bool add = b.bn_ops == CUDNN_BATCHNORM_OPS_BN_ADD_ACTIVATION;
  const cudnnActivationDescriptor_t act = b.bn_ops == CUDNN_BATCHNORM_OPS_BN ? nullptr : m_relu->d;
  // Fused, the output is the ReLU's, where its consumers read it.
  void* y = b.fused_into >= 0 ? m_nodes[static_cast<std::size_t>(b.fused_into)].y : b.y;
  const void* z = add ? m_nodes[static_cast<std::size_t>(add_other(i))].y : nullptr;
  DLSIZE_CUDNN_CHECK(cudnnBatchNormalizationForwardTrainingEx(
      m_cudnn, m_bn_mode, b.bn_ops, &kOne, &kZero, b.x_desc.d, input_of(b),
      add ? b.y_desc.d : nullptr, z, b.y_desc.d, y, b.bn_desc.d, sb, sb + c, kBnMomentum, b.stats,
      b.stats + c, kEps, b.stats + 2 * c, b.stats + 3 * c, act, m_workspace.get(),
      m_workspace.bytes(), b.reserve.get(), b.reserve.bytes()));
}

void trainer::batch_norm_backward(std::size_t i) {
  node& b = m_nodes[i];
  const std::size_t c = b.l.out_channels;
  const float* sb = m_params->small(b.params);
  float* g = m_params->small_grads(b.params);
  const bool add = b.bn_ops == CUDNN_BATCHNORM_OPS_BN_ADD_ACTIVATION;
  const cudnnActivationDescriptor_t act = b.bn_ops == CUDNN_BATCHNORM_OPS_BN ? nullptr : m_relu->d;
  // y and dy of the group's output: the ReLU's when fused (after the activation, as cuDNN
  // wants them), the batch norm's own otherwise.
  const node& out = b.fused_into >= 0 ? m_nodes[static_cast<std::size_t>(b.fused_into)] : b;
  // cuDNN writes dz without a beta: where z's gradient already holds another consumer's part,
  // dz goes to b.dy, which nothing else uses once the add is fused, and is added from there.
  float beta_z = 0;
  void* z_grad = add ? grad_target(add_other(i), beta_z) : nullptr;
  void* dz = add ? (z_grad != nullptr && beta_z == 0.0f ? z_grad : b.dy) : nullptr;
  float beta = 0;
  void* dx = grad_target(b.l.input, beta);
  DLSIZE_CUDNN_CHECK(cudnnBatchNormalizationBackwardEx(
      m_cudnn, m_bn_mode, b.bn_ops, &kOne, &beta, &kOne, &kZero, b.x_desc.d, input_of(b),
      b.y_desc.d, out.y, b.y_desc.d, out.dy, add ? b.y_desc.d : nullptr, dz, b.x_desc.d, dx,
      b.bn_desc.d, sb, sb + c, g, g + c, kEps, b.stats + 2 * c, b.stats + 3 * c, act,
      m_workspace.get(), m_workspace.bytes(), b.reserve.get(), b.reserve.bytes()));
  if (z_grad != nullptr && dz != z_grad)
    accumulate(m_dt, b.dy, z_grad, m_n * c * b.out_positions, 1.0f, m_compute);
}

void trainer::forward(std::size_t i) {
  node& n = m_nodes[i];
  // A fused group runs at its ReLU: there the add's other input is ready.
  if (n.fused_away || n.fused_into >= 0)
    return;
  if (n.fused_bn >= 0) {
    batch_norm_forward(static_cast<std::size_t>(n.fused_bn));
    return;
  }
  const auto& l = n.l;
  const void* x = input_of(n);
  const std::size_t count = m_n * l.out_channels * n.out_positions;
  void* ws = m_workspace.get();
  const std::size_t wsb = m_workspace.bytes();
  switch (l.op) {
  case DLSIZE_CUDA_CONV:
  case DLSIZE_CUDA_CONV_TRANSPOSE:
    conv_call(n, conv_pass::main, n.main_algo.algo, 0.0f, nullptr, ws, wsb);
    if (l.bias)
      bias_add(m_dt, n.y, m_params->small(n.params), m_n * n.out_positions, l.out_channels,
               m_compute);
    break;
  case DLSIZE_CUDA_BATCH_NORM:
    batch_norm_forward(i);
    break;
  case DLSIZE_CUDA_INSTANCE_NORM: {
    const float* sb = m_params->small(n.params);
    const std::size_t c = l.out_channels;
    instance_norm_forward(m_dt, x, n.y, sb, sb + c, n.stats, n.stats + m_n * c, m_n,
                          n.out_positions, c, static_cast<float>(kEps), m_compute);
    break;
  }
  case DLSIZE_CUDA_RELU:
    relu_forward(m_dt, x, n.y, count, m_compute);
    break;
  case DLSIZE_CUDA_MAX_POOL:
    DLSIZE_CUDNN_CHECK(
        cudnnPoolingForward(m_cudnn, n.pool.d, &kOne, n.x_desc.d, x, &kZero, n.y_desc.d, n.y));
    break;
  case DLSIZE_CUDA_GLOBAL_AVG_POOL:
    global_avg_pool_forward(m_dt, x, n.y, m_n, n.in_positions, l.in_channels, m_compute);
    break;
  case DLSIZE_CUDA_FC:
    fc(n, false);
    break;
  case DLSIZE_CUDA_ADD:
    add_forward(m_dt, x, other_of(n), n.y, count, m_compute);
    break;
  case DLSIZE_CUDA_CONCAT:
    concat_forward(m_dt, x, other_of(n), n.y, m_n * n.out_positions, l.in_channels,
                   m_nodes[static_cast<std::size_t>(l.other)].l.out_channels, m_compute);
    break;
  }
}

void trainer::backward(std::size_t i) {
  node& n = m_nodes[i];
  if (n.fused_away || n.fused_into >= 0)
    return;
  if (n.fused_bn >= 0) {
    batch_norm_backward(static_cast<std::size_t>(n.fused_bn));
    return;
  }
  const auto& l = n.l;
  const void* x = input_of(n);
  const std::size_t count = m_n * l.out_channels * n.out_positions;
  void* ws = m_workspace.get();
  const std::size_t wsb = m_workspace.bytes();
  float beta = 0;
  switch (l.op) {
  case DLSIZE_CUDA_CONV:
  case DLSIZE_CUDA_CONV_TRANSPOSE:
    if (l.bias)
      channel_sum(m_dt, n.dy, m_params->small_grads(n.params), 1, m_n * n.out_positions,
                  l.out_channels, m_compute);
    conv_call(n, conv_pass::wgrad, n.wgrad_algo.algo, 0.0f, nullptr, ws, wsb);
    if (void* dx = grad_target(l.input, beta))
      conv_call(n, conv_pass::dgrad, n.dgrad_algo.algo, beta, dx, ws, wsb);
    break;
  case DLSIZE_CUDA_BATCH_NORM:
    batch_norm_backward(i);
    break;
  case DLSIZE_CUDA_INSTANCE_NORM: {
    const std::size_t c = l.out_channels;
    float* g = m_params->small_grads(n.params);
    void* dx = grad_target(l.input, beta);
    instance_norm_backward(m_dt, x, n.dy, dx, m_params->small(n.params), n.stats, n.stats + m_n * c,
                           g, g + c, m_scratch, m_n, n.out_positions, c, beta, m_compute);
    break;
  }
  case DLSIZE_CUDA_RELU: {
    void* dx = grad_target(l.input, beta);
    relu_backward(m_dt, n.y, n.dy, dx, count, n.in_place ? 0.0f : beta, m_compute);
    break;
  }
  case DLSIZE_CUDA_MAX_POOL: {
    void* dx = grad_target(l.input, beta);
    DLSIZE_CUDNN_CHECK(cudnnPoolingBackward(m_cudnn, n.pool.d, &kOne, n.y_desc.d, n.y, n.y_desc.d,
                                            n.dy, n.x_desc.d, x, &beta, n.x_desc.d, dx));
    break;
  }
  case DLSIZE_CUDA_GLOBAL_AVG_POOL:
    if (void* dx = grad_target(l.input, beta))
      global_avg_pool_backward(m_dt, n.dy, dx, m_n, n.in_positions, l.in_channels, beta, m_compute);
    break;
  case DLSIZE_CUDA_FC:
    fc(n, true);
    break;
  case DLSIZE_CUDA_ADD: {
    // An operand that shares this gradient's buffer (share_add_gradients) already holds it.
    if (void* da = grad_target(l.input, beta); da && da != n.dy)
      accumulate(m_dt, n.dy, da, count, beta, m_compute);
    if (void* db = grad_target(l.other, beta); db && db != n.dy)
      accumulate(m_dt, n.dy, db, count, beta, m_compute);
    break;
  }
  case DLSIZE_CUDA_CONCAT: {
    float beta_b = 0;
    void* da = grad_target(l.input, beta);
    void* db = grad_target(l.other, beta_b);
    concat_backward(m_dt, n.dy, da, db, m_n * n.out_positions, l.in_channels,
                    m_nodes[static_cast<std::size_t>(l.other)].l.out_channels, beta, beta_b,
                    m_compute);
    break;
  }
  }
}

void trainer::fill_synthetic(std::uint32_t slot, std::uint64_t seed) {
  m_input->fill_synthetic(slot, seed, m_compute);
  DLSIZE_CUDA_CHECK(cudaStreamSynchronize(m_compute));
}

void trainer::step(std::uint32_t slot, bool update, bool time_ops, dlsize_cuda_step_result& out) {
  // An event query elsewhere may have left cudaErrorNotReady as this thread's last error; the
  // first launch check would throw it.
  if (cudaPeekAtLastError() == cudaErrorNotReady)
    cudaGetLastError();
  if (time_ops && m_layer_ev.empty()) {
    m_layer_ev.assign(4 * m_nodes.size(), nullptr);
    for (auto& e : m_layer_ev)
      DLSIZE_CUDA_CHECK(cudaEventCreate(&e));
  }
  const auto view = m_input->begin_step(slot, m_compute);
  DLSIZE_CUDA_CHECK(cudaEventRecord(m_ev[0], m_compute));
  preprocess_args a;
  a.raw = view.raw;
  a.lengths = view.lengths;
  a.stride = m_input->stride();
  a.out = m_x0.get();
  a.labels = m_labels.as<std::int32_t>();
  a.crops = m_crops.as<std::uint32_t>();
  a.n = m_n;
  a.c = static_cast<std::uint32_t>(m_input_channels);
  const std::size_t r = m_rank;
  a.d = r == 3 ? static_cast<std::uint32_t>(m_input_spatial[0]) : 1;
  a.h = static_cast<std::uint32_t>(m_input_spatial[r - 2]);
  a.w = static_cast<std::uint32_t>(m_input_spatial[r - 1]);
  a.sd = a.d + (r == 3 ? a.d / 8 : 0);
  a.sh = a.h + a.h / 8;
  a.sw = a.w + a.w / 8;
  a.seed = m_opt.seed;
  a.step = view.resident ? 0 : m_steps;
  a.segmentation = m_segmentation;
  a.classes = static_cast<std::uint32_t>(m_classes);
  preprocess(m_dt, a, m_compute);
  m_input->end_step(slot, m_compute);
  DLSIZE_CUDA_CHECK(cudaEventRecord(m_ev[1], m_compute));

  auto* loss_sum = m_small.as<float>();
  int* overflow = reinterpret_cast<int*>(m_small.as<char>() + 64);
  DLSIZE_CUDA_CHECK(cudaMemsetAsync(m_small.get(), 0, m_small.bytes(), m_compute));
  for (std::size_t i = 0; i < m_nodes.size(); ++i)
    run_layer(i, false, time_ops);
  const node& last = m_nodes.back();
  const std::size_t positions = m_n * last.out_positions;
  softmax_xent(m_dt, last.y, m_labels.as<std::int32_t>(), last.dy, loss_sum, positions, m_classes,
               m_loss_scale, m_compute);
  DLSIZE_CUDA_CHECK(cudaEventRecord(m_ev[2], m_compute));

  m_written.assign(m_nodes.size(), false);
  m_written.back() = true;
  for (std::size_t i = m_nodes.size(); i-- > 0;) {
    run_layer(i, true, time_ops);
    if (m_allreduce)
      m_allreduce->layer_done(static_cast<int>(i), m_compute);
  }
  if (m_allreduce)
    m_allreduce->finish(m_compute);
  DLSIZE_CUDA_CHECK(cudaEventRecord(m_ev[3], m_compute));
  if (update) {
    m_params->check(overflow, m_compute);
    m_params->sgd(m_lr, static_cast<float>(m_opt.momentum), static_cast<float>(m_opt.weight_decay),
                  1.0f / m_loss_scale, overflow, m_compute);
  }
  DLSIZE_CUDA_CHECK(
      cudaMemcpyAsync(m_host_small.get(), m_small.get(), 128, cudaMemcpyDeviceToHost, m_compute));
  DLSIZE_CUDA_CHECK(cudaEventRecord(m_ev[4], m_compute));
  try {
    if (m_allreduce)
      m_allreduce->wait(m_ev[4]);
    else
      DLSIZE_CUDA_CHECK(cudaEventSynchronize(m_ev[4]));
  } catch (const cuda_failure& e) {
    if (m_sync)
      throw;
    throw cuda_failure(e.code(),
                       std::string(e.what()) + " (DLSIZE_CUDA_SYNC=1 names the layer that failed)");
  }

  float loss = 0;
  int skipped = 0;
  std::memcpy(&loss, m_host_small.get(), sizeof loss);
  std::memcpy(&skipped, m_host_small.as<char>() + 64, sizeof skipped);
  float ms[4] = {};
  for (int k = 0; k < 4; ++k)
    DLSIZE_CUDA_CHECK(cudaEventElapsedTime(&ms[k], m_ev[k], m_ev[k + 1]));
  out = {};
  out.loss = static_cast<double>(loss) / static_cast<double>(positions);
  out.preprocess_ms = ms[0];
  out.forward_ms = ms[1];
  out.backward_ms = ms[2];
  out.optimizer_ms = ms[3];
  out.busy_ms = static_cast<double>(ms[0]) + ms[1] + ms[2] + ms[3];
  out.loss_scale = m_loss_scale;
  out.skipped = skipped;
  if (time_ops)
    for (std::size_t i = 0; i < m_nodes.size(); ++i)
      for (int k = 0; k < 4; k += 2) {
        float layer_ms = 0;
        DLSIZE_CUDA_CHECK(
            cudaEventElapsedTime(&layer_ms, m_layer_ev[4 * i + k], m_layer_ev[4 * i + k + 1]));
        const node& n = m_nodes[i];
        out.op_ms[n.fused_bn >= 0 ? DLSIZE_CUDA_BATCH_NORM : n.l.op] += layer_ms;
      }
  m_last_scale = m_loss_scale;
  if (!update)
    return;
  ++m_steps;
  if (m_dt != dtype::f16)
    return;
  if (skipped) {
    m_loss_scale = std::max(1.0f, m_loss_scale / 2);
    m_good_steps = 0;
  } else if (++m_good_steps >= 2000) {
    m_loss_scale = std::min(16777216.0f, m_loss_scale * 2);
    m_good_steps = 0;
  }
}

void trainer::join(int rank, int nranks, const std::uint8_t* id) {
  m_allreduce = std::make_unique<grad_allreduce>(rank, nranks, id, m_device);
  std::vector<std::size_t> ho, hl, fo, fl;
  for (const auto& n : m_nodes) {
    ho.push_back(n.params.h_off);
    hl.push_back(n.params.h_len);
    fo.push_back(n.params.f_off);
    fl.push_back(n.params.f_len);
  }
  const std::size_t bucket = m_opt.bucket_bytes ? m_opt.bucket_bytes : (25ull << 20);
  m_allreduce->set_buckets(plan_buckets(ho, hl, fo, fl, m_es, bucket), m_params->weight_grad_base(),
                           m_dt == dtype::f16 ? ncclHalf : ncclFloat, m_params->small_grad_base());
}

std::vector<float> trainer::read_params() {
  return m_params->read(m_compute);
}
void trainer::write_params(const std::vector<float>& v) {
  m_params->write(v, m_compute);
}
std::vector<float> trainer::read_grads() {
  return m_params->read_grads(m_last_scale, m_compute);
}

} // namespace dlsize::cuda
