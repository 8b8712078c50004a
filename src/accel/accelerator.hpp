#pragma once
// An accelerator as the run loop sees it: it is handed a batch at a start time and says when
// its training step on that batch ends. The emulated one holds the batch for a calibrated
// compute time; the CUDA one (src/accel/cuda, built with CUDA) runs the model's real step.
// Both feed the same per-step records, so everything downstream is one code path.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace dlsize::accel {

// The loader side of an accelerator whose steps train on the batch's bytes (a real GPU), for
// batch k in batch order: acquire waits until the batch's slot is free, stage_piece copies a
// piece of a sample as its read completes, submit hands the whole batch over.
class batch_input {
public:
  virtual void acquire(std::uint64_t batch) = 0;
  // Bytes [offset, offset + length) of sample index of the batch, whose length is sample_length.
  virtual void stage_piece(std::uint64_t batch, std::uint32_t index, std::uint64_t offset,
                           const std::byte* data, std::size_t length,
                           std::uint64_t sample_length) = 0;
  virtual void submit(std::uint64_t batch, std::uint32_t samples) = 0;
  virtual std::uint32_t batch_size() const = 0;

protected:
  ~batch_input() = default; // owned as the accelerator it is part of
};

class accelerator {
public:
  virtual ~accelerator() = default;
  // "emulated" or "cuda".
  virtual std::string kind() const = 0;
  // What it stands for: "emulated:h100", "cuda:0 NVIDIA H200".
  virtual std::string device() const = 0;
  // Runs one training step that may start at start_ns (monotonic) and returns when it ends,
  // with the end time. Must not throw on the hot path except for hardware failures.
  virtual std::uint64_t step(std::uint64_t start_ns) = 0;
  // Device busy time of the last step: the compute time held (emulated) or measured with CUDA
  // events (cuda). 0 before the first step.
  virtual std::uint64_t last_busy_ns() const { return 0; }
  // The compute of the last step, which ran from start_ns to end_ns, for the step records: its
  // span (emulated: the hold), or a real GPU's busy time from CUDA events (at most the span).
  virtual std::uint64_t compute_ns(std::uint64_t start_ns, std::uint64_t end_ns) const {
    return end_ns - start_ns;
  }
  // The report's per-device row over the steps run so far (a real GPU's device and its step
  // figures); null where there is none (emulated).
  virtual nlohmann::json run_details() const { return nullptr; }
  // The PCI bus id NVML knows the device by ("0000:3b:00.0"); empty where there is none.
  virtual std::string pci_bus_id() const { return {}; }
  // Where the readers hand over the batch's bytes; null where the step does not train on them
  // (emulated).
  virtual batch_input* input() { return nullptr; }
  // Data parallel over the job's ranks (a real GPU: NCCL). Where it is, every rank joins with
  // the same id bytes, a new_job_id() of rank 0's accelerator.
  virtual bool joins_ranks() const { return false; }
  virtual std::vector<std::uint8_t> new_job_id() const { return {}; }
  virtual void join(int /*rank*/, int /*nranks*/, const std::vector<std::uint8_t>& /*id*/) {}
  // Facts for the report (the compute model, the device).
  virtual nlohmann::json describe() const = 0;
};

} // namespace dlsize::accel
