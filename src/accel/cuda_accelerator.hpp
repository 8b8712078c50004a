#pragma once
// The CUDA accelerator: one GPU running the model's real training step through the backend
// module. The loader side hands it each batch's bytes in batch order (acquire, stage every
// sample, submit); step() then runs the next batch and returns when its kernels are done.
// Overlap of loading and compute comes from the slots: while batch k trains, batches k+1 to
// k+slots-1 are copied to the device on the copy stream. docs/gpu.md has the calls in order.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "accel/accelerator.hpp"
#include "accel/cuda_abi.h"
#include "accel/cuda_backend.hpp"
#include "core/enum_names.hpp"
#include "model/model_spec.hpp"

namespace dlsize::accel {

enum class cuda_precision { fp16, tf32, fp32 };
inline constexpr core::enum_table<cuda_precision, 3> kCudaPrecisionNames{
    {{cuda_precision::fp16, "fp16", "mixed precision, tensor cores"},
     {cuda_precision::tf32, "tf32"},
     {cuda_precision::fp32, "fp32"}}};
constexpr const auto& names_of(cuda_precision) {
  return kCudaPrecisionNames;
}
std::string to_string(cuda_precision p);
// "fp16", "tf32" or "fp32"; throws usage_error naming option otherwise.
cuda_precision parse_precision(const std::string& text, const std::string& option);

struct cuda_options {
  int device = 0;               // the rank's local rank
  std::uint32_t batch_size = 0; // 0: the model's
  cuda_precision precision = cuda_precision::fp16;
  bool search_algorithms = true;      // time cuDNN's algorithms once (false: heuristics)
  std::uint32_t slots = 2;            // the pipeline's prefetch depth
  std::uint64_t sample_bytes_max = 0; // 0: what one sample's crop needs
  double learning_rate = 0;           // 0: 0.1 x batch / 256
  double momentum = 0.9;
  double weight_decay = 5e-5;
  std::uint64_t seed = 0;
};

// The model as the module takes it; layers points into the returned vector.
struct cuda_model_abi {
  std::vector<dlsize_cuda_layer> layers;
  dlsize_cuda_model model{};
};
cuda_model_abi to_abi(const model::model_spec& m);

// Bytes of one sample that the preprocessing reads: a source image (or volume) 1/8 larger than
// the input in every spatial dimension, which it crops and flips.
std::uint64_t staged_bytes_per_sample(const model::model_spec& m);

// A GPU's step results over a run: loss first and last, mean busy and phase times, steps
// skipped by the fp16 loss scaling.
struct gpu_tally {
  std::uint64_t steps = 0, skipped = 0;
  double loss_first = 0, loss_last = 0;
  double busy_ms = 0, preprocess_ms = 0, forward_ms = 0, backward_ms = 0, optimizer_ms = 0;
  void add(const dlsize_cuda_step_result& r);
  nlohmann::json to_json() const;
};

class cuda_accelerator final : public accelerator, public batch_input {
public:
  // Loads the backend, checks the device and builds the trainer. Throws usage_error when the
  // backend, driver or device is missing or the model does not fit; run_error on CUDA failures.
  cuda_accelerator(const model::model_spec& m, const cuda_options& opt);
  ~cuda_accelerator() override;
  cuda_accelerator(const cuda_accelerator&) = delete;
  cuda_accelerator& operator=(const cuda_accelerator&) = delete;

  std::string kind() const override { return "cuda"; }
  std::string device() const override;
  // Runs the next submitted batch (in batch order) and returns the monotonic time it ended.
  std::uint64_t step(std::uint64_t start_ns) override;
  std::uint64_t last_busy_ns() const override;
  std::uint64_t compute_ns(std::uint64_t start_ns, std::uint64_t end_ns) const override;
  nlohmann::json describe() const override;
  // {"device": describe(), "steps": the tally of every step run}.
  nlohmann::json run_details() const override;
  std::string pci_bus_id() const override { return m_info.pci_bus_id; }
  batch_input* input() override { return this; }
  bool joins_ranks() const override { return true; }
  std::vector<std::uint8_t> new_job_id() const override { return nccl_unique_id(); }

  // Loader side, for batch k (its slot is k % slots): acquire waits until the slot is free.
  void acquire(std::uint64_t batch) override;
  void stage_sample(std::uint64_t batch, std::uint32_t index, const std::byte* data,
                    std::size_t length);
  // A piece of a sample as a read completes: bytes [offset, offset + length) of sample_length.
  void stage_piece(std::uint64_t batch, std::uint32_t index, std::uint64_t offset,
                   const std::byte* data, std::size_t length, std::uint64_t sample_length) override;
  void submit(std::uint64_t batch, std::uint32_t samples) override;
  // Puts random bytes of seed on the device in slot 0 and keeps them for every later step: the
  // synthetic input of calibration and tests. Then step() reuses that batch.
  void use_synthetic(std::uint64_t seed);

  // Data parallel: call on every rank with the same id bytes (rank 0's nccl_unique_id()).
  static std::vector<std::uint8_t> nccl_unique_id();
  void join(int rank, int nranks, const std::vector<std::uint8_t>& id) override;

  // Later steps time every layer (an event pair each) and fill last().op_ms per layer kind.
  void time_ops(bool on) { m_time_ops = on; }
  const dlsize_cuda_step_result& last() const { return m_last; }
  const dlsize_cuda_trainer_info& info() const { return m_info; }
  std::uint32_t batch_size() const override { return m_batch; }
  const std::string& build() const { return m_build; }

  // Tests: parameters and the last step's gradients as fp32; step without update.
  std::vector<float> params() const;
  void set_params(const std::vector<float>& p);
  std::vector<float> grads() const;
  double loss_only();

private:
  std::uint32_t slot_of(std::uint64_t batch) const {
    return static_cast<std::uint32_t>(batch % m_info.slots);
  }
  const dlsize_cuda_api& m_api;
  dlsize_cuda_trainer* m_trainer = nullptr;
  dlsize_cuda_trainer_info m_info{};
  dlsize_cuda_step_result m_last{};
  gpu_tally m_tally; // every step that returned
  std::uint32_t m_batch = 0;
  cuda_precision m_precision;
  std::string m_build;
  std::uint64_t m_next = 0; // next batch step() runs
  bool m_synthetic = false;
  bool m_time_ops = false;
  std::uint64_t m_params = 0;
};

} // namespace dlsize::accel
