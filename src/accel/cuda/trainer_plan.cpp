// How each layer runs, decided once when a trainer is made: which batch norms fuse with what
// follows them, which operands share a residual add's gradient, and the convolution
// algorithms, each run once with the real buffers before the first step depends on it.
#include <algorithm>
#include <string>
#include <vector>

#include "accel/cuda/check.hpp"
#include "accel/cuda/trainer.hpp"

namespace dlsize::cuda {

void trainer::choose_algorithms() {
  const std::size_t limit = m_opt.workspace_bytes_max ? m_opt.workspace_bytes_max : (1ull << 30);
  const bool search = m_opt.algorithms == DLSIZE_CUDA_ALGO_SEARCH;
  conv_planner plan(m_cudnn, search, limit);
  if (search) {
    m_workspace = device_buffer(limit, "cuDNN workspace for the algorithm search");
    plan.set_workspace(m_workspace.get(), m_workspace.bytes());
  }
  // The beta each data gradient runs with: 1 where a later layer's backward wrote the target
  // first, as grad_target decides in the step's backward order.
  std::vector<bool> written(m_nodes.size(), false);
  std::vector<float> dgrad_beta(m_nodes.size(), 0.0f);
  written.back() = true;
  for (std::size_t i = m_nodes.size(); i-- > 0;)
    for (const int32_t idx : {m_nodes[i].l.input, m_nodes[i].l.other})
      if (idx >= 0) {
        if (idx == m_nodes[i].l.input)
          dgrad_beta[i] = written[static_cast<std::size_t>(idx)] ? 1.0f : 0.0f;
        written[static_cast<std::size_t>(idx)] = true;
      }
  for (std::size_t i = 0; i < m_nodes.size(); ++i) {
    node& n = m_nodes[i];
    const auto& l = n.l;
    if (l.op != DLSIZE_CUDA_CONV && l.op != DLSIZE_CUDA_CONV_TRANSPOSE)
      continue;
    const std::string key = layer_shape(n);
    const void* x = input_of(n);
    const void* w = m_params->weights(n.params);
    void* dw = m_params->weight_grads(n.params);
    void* dx = l.input >= 0 ? m_nodes[static_cast<std::size_t>(l.input)].dy : nullptr;
    if (l.op == DLSIZE_CUDA_CONV) {
      n.main_algo = first_that_runs(
          i, conv_pass::main,
          plan.forward(key, n.x_desc, x, n.w_desc, w, n.conv_main, n.y_desc, n.y), 0.0f);
      n.wgrad_algo = first_that_runs(
          i, conv_pass::wgrad,
          plan.backward_filter(key, n.x_desc, x, n.y_desc, n.dy, n.conv_wgrad, n.w_desc, dw), 0.0f);
      if (dx)
        n.dgrad_algo = first_that_runs(
            i, conv_pass::dgrad,
            plan.backward_data(key, n.w_desc, w, n.y_desc, n.dy, n.conv_dgrad, n.x_desc, dx),
            dgrad_beta[i]);
    } else {
      n.main_algo = first_that_runs(
          i, conv_pass::main,
          plan.backward_data(key, n.w_desc, w, n.x_desc, x, n.conv_main, n.y_desc, n.y), 0.0f);
      n.wgrad_algo = first_that_runs(
          i, conv_pass::wgrad,
          plan.backward_filter(key, n.y_desc, n.dy, n.x_desc, x, n.conv_wgrad, n.w_desc, dw), 0.0f);
      if (dx)
        n.dgrad_algo = first_that_runs(
            i, conv_pass::dgrad,
            plan.forward(key, n.y_desc, n.dy, n.w_desc, w, n.conv_dgrad, n.x_desc, dx),
            dgrad_beta[i]);
    }
  }
  // The workspace the chosen algorithms and batch norms need, the largest of them, no more.
  std::size_t need = m_bn_workspace;
  for (const auto& n : m_nodes)
    need = std::max({need, n.main_algo.workspace, n.wgrad_algo.workspace, n.dgrad_algo.workspace});
  m_workspace = device_buffer();
  m_workspace = device_buffer(need, "cuDNN workspace");
}

void trainer::share_add_gradients() {
  for (auto& n : m_nodes) {
    if (n.l.op != DLSIZE_CUDA_ADD || n.fused_away)
      continue;
    // An operand that only this add reads gets the add's own gradient as its gradient: the
    // same values, so no copy. The operand's other aliases (an in-place ReLU's input) keep
    // their own buffer, which the ReLU's backward then writes out of place with beta 0.
    for (const int32_t idx : {n.l.input, n.l.other})
      if (idx >= 0 && n.l.input != n.l.other) {
        node& p = m_nodes[static_cast<std::size_t>(idx)];
        if (p.consumers == 1)
          p.dy = n.dy;
      }
  }
}

int trainer::add_other(std::size_t bn_index) const {
  const node& relu = m_nodes[static_cast<std::size_t>(m_nodes[bn_index].fused_into)];
  const node& add = m_nodes[static_cast<std::size_t>(relu.l.input)];
  return add.l.input == static_cast<int32_t>(bn_index) ? add.l.other : add.l.input;
}

// The workspace one batch norm (fused or not) needs, forward or backward; allocates its reserve
// space.
std::size_t trainer::batch_norm_workspace(node& b) {
  const bool add = b.bn_ops == CUDNN_BATCHNORM_OPS_BN_ADD_ACTIVATION;
  const cudnnActivationDescriptor_t act = b.bn_ops == CUDNN_BATCHNORM_OPS_BN ? nullptr : m_relu->d;
  std::size_t fwd = 0, bwd = 0, reserve = 0;
  DLSIZE_CUDNN_CHECK(cudnnGetBatchNormalizationForwardTrainingExWorkspaceSize(
      m_cudnn, m_bn_mode, b.bn_ops, b.x_desc.d, add ? b.y_desc.d : nullptr, b.y_desc.d, b.bn_desc.d,
      act, &fwd));
  DLSIZE_CUDNN_CHECK(cudnnGetBatchNormalizationBackwardExWorkspaceSize(
      m_cudnn, m_bn_mode, b.bn_ops, b.x_desc.d, b.y_desc.d, b.y_desc.d, add ? b.y_desc.d : nullptr,
      b.x_desc.d, b.bn_desc.d, act, &bwd));
  DLSIZE_CUDNN_CHECK(cudnnGetBatchNormalizationTrainingExReserveSpaceSize(
      m_cudnn, m_bn_mode, b.bn_ops, act, b.x_desc.d, &reserve));
  b.reserve = device_buffer();
  b.reserve = device_buffer(reserve, "batch norm reserve space");
  return std::max(fwd, bwd);
}

std::size_t trainer::plan_batch_norm() {
  m_relu = std::make_unique<activation_desc>();
  // cuDNN fuses only channels-last half tensors in the persistent mode, 4 channels at a time.
  const bool can_fuse = m_dt == dtype::f16 && m_rank == 2;
  auto sole_consumer = [&](std::size_t idx) {
    for (std::size_t j = idx + 1; j < m_nodes.size(); ++j)
      if (m_nodes[j].l.input == static_cast<int32_t>(idx) ||
          m_nodes[j].l.other == static_cast<int32_t>(idx))
        return j;
    return idx; // none: the last layer
  };
  std::size_t need = 0;
  for (std::size_t i = 0; i < m_nodes.size(); ++i) {
    node& b = m_nodes[i];
    if (b.l.op != DLSIZE_CUDA_BATCH_NORM)
      continue;
    const std::size_t j = sole_consumer(i);
    if (can_fuse && b.consumers == 1 && b.l.out_channels % 4 == 0 && j != i) {
      node& next = m_nodes[j];
      if (next.l.op == DLSIZE_CUDA_RELU && next.in_place && next.fused_bn < 0) {
        b.bn_ops = CUDNN_BATCHNORM_OPS_BN_ACTIVATION;
        b.fused_into = static_cast<int>(j);
      } else if (next.l.op == DLSIZE_CUDA_ADD && next.l.input != next.l.other &&
                 next.consumers == 1 && !next.fused_away) {
        const std::size_t k = sole_consumer(j);
        const int32_t z = next.l.input == static_cast<int32_t>(i) ? next.l.other : next.l.input;
        // z == x would make dz and dx one buffer written by one call.
        if (k != j && m_nodes[k].l.op == DLSIZE_CUDA_RELU && m_nodes[k].in_place &&
            m_nodes[k].fused_bn < 0 && z != b.l.input) {
          b.bn_ops = CUDNN_BATCHNORM_OPS_BN_ADD_ACTIVATION;
          b.fused_into = static_cast<int>(k);
          next.fused_away = true;
        }
      }
    }
    if (b.fused_into >= 0)
      m_nodes[static_cast<std::size_t>(b.fused_into)].fused_bn = static_cast<int>(i);
    std::size_t bn_need = batch_norm_workspace(b);
    if (b.fused_into >= 0) {
      // Run the fused group once, forward and backward: a fusion cuDNN refuses for these
      // shapes falls back to batch norm alone, before the first step could fail.
      try {
        if (m_workspace.bytes() < bn_need)
          m_workspace = device_buffer(bn_need, "batch norm workspace");
        m_written.assign(m_nodes.size(), false);
        batch_norm_forward(i);
        batch_norm_backward(i);
        DLSIZE_CUDA_CHECK(cudaStreamSynchronize(m_compute));
      } catch (const cuda_failure&) {
        cudaGetLastError();
        node& relu = m_nodes[static_cast<std::size_t>(b.fused_into)];
        relu.fused_bn = -1;
        m_nodes[static_cast<std::size_t>(relu.l.input)].fused_away = false;
        b.fused_into = -1;
        b.bn_ops = CUDNN_BATCHNORM_OPS_BN;
        bn_need = batch_norm_workspace(b);
      }
      // The trial moved the running statistics; they start again at mean 0, variance 1.
      fill_float(b.stats, b.l.out_channels, 0.0f, m_compute);
      fill_float(b.stats + b.l.out_channels, b.l.out_channels, 1.0f, m_compute);
    }
    need = std::max(need, bn_need);
  }
  return need;
}

conv_choice trainer::first_that_runs(std::size_t i, conv_pass p,
                                     const std::vector<conv_choice>& candidates, float beta) {
  node& n = m_nodes[i];
  conv_desc& conv = p == conv_pass::main    ? n.conv_main
                    : p == conv_pass::dgrad ? n.conv_dgrad
                                            : n.conv_wgrad;
  void* dx = n.l.input >= 0 ? m_nodes[static_cast<std::size_t>(n.l.input)].dy : nullptr;
  std::string refused;
  for (const conv_choice& c : candidates) {
    // The search's workspace is as large as the limit; heuristics' choices get their own.
    device_buffer own;
    void* ws = m_workspace.get();
    if (m_workspace.bytes() < c.workspace) {
      own = device_buffer(c.workspace, "cuDNN workspace to try an algorithm");
      ws = own.get();
    }
    DLSIZE_CUDNN_CHECK(cudnnSetConvolutionMathType(conv.d, c.math));
    try {
      conv_call(n, p, c.algo, beta, dx, ws, c.workspace);
      DLSIZE_CUDA_CHECK(cudaStreamSynchronize(m_compute));
      return c;
    } catch (const cuda_failure& e) {
      cudaGetLastError(); // a refused launch is not the next call's error
      refused += " algorithm " + std::to_string(c.algo) + ": " + e.what() + ";";
    }
  }
  static const char* const pass_names[] = {"forward", "data gradient", "filter gradient"};
  throw cuda_failure(DLSIZE_CUDA_FAILED, "layer " + std::to_string(i) + " (" + layer_shape(n) +
                                             "): cuDNN ran none of its algorithms for the " +
                                             pass_names[static_cast<int>(p)] + " with beta " +
                                             std::to_string(beta) + ":" + refused);
}

} // namespace dlsize::cuda
