#pragma once
// The training step of one model on one GPU: the layer list as cuDNN, cuBLAS and the module's
// kernels run it, channels-last, forward, softmax cross-entropy, backward (data and filter
// gradients), optional bucketed NCCL allreduce, and SGD with momentum. fp16 keeps fp32 master
// weights and scales the loss dynamically (halved on overflow, doubled after 2,000 clean
// steps). Every layer's output and gradient has its own buffer, except a ReLU that may work in
// place on a tensor only it reads; a tensor read by several layers sums their gradients.
#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <cudnn.h>

#include <memory>
#include <string>
#include <vector>

#include "accel/cuda/allreduce.hpp"
#include "accel/cuda/cudnn_desc.hpp"
#include "accel/cuda/device_memory.hpp"
#include "accel/cuda/input_stage.hpp"
#include "accel/cuda/kernels.hpp"
#include "accel/cuda/parameters.hpp"
#include "accel/cuda_abi.h"

namespace dlsize::cuda {

// The three convolutions of a conv or conv_transpose layer.
enum class conv_pass { main, dgrad, wgrad };

struct node {
  dlsize_cuda_layer l{};
  std::vector<std::uint64_t> in_spatial, out_spatial;
  std::size_t in_positions = 1, out_positions = 1;
  void* y = nullptr;  // output
  void* dy = nullptr; // its gradient
  bool in_place = false;
  int consumers = 0;
  param_range params;
  tensor_desc x_desc, y_desc, bn_desc;
  filter_desc w_desc;
  conv_desc conv_main, conv_dgrad, conv_wgrad;
  conv_choice main_algo, dgrad_algo, wgrad_algo;
  pool_desc pool;
  float* stats = nullptr; // batch norm: running mean, running var, saved mean, saved inverse std
  // Batch norm through cudnnBatchNormalization*Ex, fused (fp16, 2D) with the ReLU after it, or
  // with the add and the ReLU after that, as PyTorch runs ResNets: the group then runs at the
  // ReLU's place (the add's other input is ready only there), and its add and ReLU not at all.
  cudnnBatchNormOps_t bn_ops = CUDNN_BATCHNORM_OPS_BN;
  int fused_into = -1;     // the ReLU that runs this group (on the batch norm node); -1: none
  int fused_bn = -1;       // on the ReLU: the batch norm whose group it runs; -1: none
  bool fused_away = false; // the group's add or ReLU: runs as part of the batch norm
  device_buffer reserve;   // batch norm: forward to backward (cuDNN's reserve space)
};

class trainer {
public:
  trainer(const dlsize_cuda_model& m, const dlsize_cuda_trainer_options& o);
  ~trainer();
  trainer(const trainer&) = delete;
  trainer& operator=(const trainer&) = delete;

  void info(dlsize_cuda_trainer_info& out) const;
  input_stage& input() { return *m_input; }
  void fill_synthetic(std::uint32_t slot, std::uint64_t seed);
  // time_ops: an event pair around every layer, summed per layer kind into out.op_ms.
  void step(std::uint32_t slot, bool update, bool time_ops, dlsize_cuda_step_result& out);
  void join(int rank, int nranks, const std::uint8_t* id);
  std::vector<float> read_params();
  void write_params(const std::vector<float>& v);
  std::vector<float> read_grads();
  void make_current() const;
  int info_device() const { return m_device; }

private:
  void build(const dlsize_cuda_model& m);
  // Waits for the streams, then frees the allreduce, the input stage and every raw handle.
  void release() noexcept;
  void build_nodes(const dlsize_cuda_model& m);
  void allocate();
  void describe();
  // Which batch norms fuse with what follows them, their reserve space, and the workspace
  // they need (returned); a fusion cuDNN refuses when run once is undone.
  std::size_t plan_batch_norm();
  std::size_t batch_norm_workspace(node& b);
  // Residual adds pass their gradient on without copies where an operand has no other reader.
  void share_add_gradients();
  // The group's cuDNN calls: forward, or backward with its gradient targets.
  void batch_norm_forward(std::size_t bn_index);
  void batch_norm_backward(std::size_t bn_index);
  // The add's input that is not the batch norm's output: z of relu(bn(x) + z).
  int add_other(std::size_t bn_index) const;
  void choose_algorithms();
  // Runs each candidate once with the layer's real buffers and beta, best first, and returns
  // the first that cuDNN runs: a choice refused at the first step would end the run.
  conv_choice first_that_runs(std::size_t i, conv_pass p, const std::vector<conv_choice>& c,
                              float beta);
  // The cuDNN call of one of a convolution layer's passes, with its algorithm and workspace.
  void conv_call(const node& n, conv_pass p, int algo, float beta, void* dx, void* ws,
                 std::size_t wsb);
  void forward(std::size_t i);
  void backward(std::size_t i);
  // forward(i) or backward(i), naming the layer in any failure; with DLSIZE_CUDA_SYNC=1 it
  // waits for the layer's kernels, so that an asynchronous fault is named by its layer too.
  void run_layer(std::size_t i, bool back, bool time_ops);
  // "conv 56x56x64 to 56x56x256 k1 s1 p0 d1": a layer's kind and shapes.
  std::string layer_shape(const node& n) const;
  const void* input_of(const node& n) const;
  const void* other_of(const node& n) const;
  // The gradient buffer of layer idx's output and the beta that adds to what is there.
  void* grad_target(int idx, float& beta);
  void fc(const node& n, bool backward);

  dlsize_cuda_trainer_options m_opt;
  int m_device;
  std::string m_device_name, m_pci;
  dtype m_dt;
  cudnnDataType_t m_cudnn_dt;
  std::size_t m_es;
  std::uint32_t m_n;
  std::uint32_t m_rank;
  std::vector<std::uint64_t> m_input_spatial;
  std::uint64_t m_input_channels = 0, m_classes = 0;
  std::uint64_t m_model_params = 0;
  bool m_segmentation = false;

  cudaStream_t m_compute = nullptr, m_copy = nullptr;
  cudnnHandle_t m_cudnn = nullptr;
  cublasHandle_t m_cublas = nullptr;
  cudaEvent_t m_ev[5] = {};
  std::vector<cudaEvent_t> m_layer_ev; // time_ops: forward begin, end, backward begin, end
  bool m_sync = false;                 // DLSIZE_CUDA_SYNC=1
  std::vector<node> m_nodes;
  std::unique_ptr<parameters> m_params;
  std::unique_ptr<input_stage> m_input;
  std::unique_ptr<grad_allreduce> m_allreduce;
  device_buffer m_acts, m_aux, m_workspace, m_x0, m_labels, m_crops, m_small;
  std::size_t m_act_bytes = 0;
  float* m_scratch = nullptr; // instance norm backward: 2 x batch x channels
  cudnnBatchNormMode_t m_bn_mode = CUDNN_BATCHNORM_SPATIAL;
  std::unique_ptr<activation_desc> m_relu;
  std::size_t m_bn_workspace = 0;
  pinned_buffer m_host_small;
  std::vector<bool> m_written;
  std::uint64_t m_steps = 0;
  float m_loss_scale = 1, m_last_scale = 1;
  std::uint64_t m_good_steps = 0;
  float m_lr = 0;
};

} // namespace dlsize::cuda
