#pragma once
// An accelerator as the run loop sees it: it is handed a batch at a start time and says when
// its training step on that batch ends. The emulated one holds the batch for a calibrated
// compute time; the CUDA one (src/accel/cuda, built with CUDA) runs the model's real step.
// Both feed the same per-step records, so everything downstream is one code path.
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

namespace dlsize::accel {

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
  // Facts for the report (the compute model, the device).
  virtual nlohmann::json describe() const = 0;
};

} // namespace dlsize::accel
