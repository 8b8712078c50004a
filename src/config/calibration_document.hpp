#pragma once
// A GPU calibration ("schema": "dlsize.calibration/1", docs/calibration.schema.json) as one
// typed value: `dlsize calibrate` (accel/calibrate) fills it, `--accelerator emulated:FILE`
// (config/accelerator_spec) reads its preset from it, and to_json/from_json
// (config/calibration_json.cpp) alone write and read its JSON. A hand-written calibration needs
// only the schema, workload, accelerator, batch size and compute time: every other field is
// optional, and a loss or measured block of another shape than calibrate's rides in `extra`
// as written.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace dlsize::config {

inline constexpr const char* kCalibrationSchema = "dlsize.calibration/1";

// The training loss at the first and the last step (a run that learns lowers it).
struct calibration_loss {
  double first = 0, last = 0;
  bool falling = false;
};

// What calibrate measured besides the compute time: the model, the wall-clock rates, where a
// step's GPU time goes and the machine.
struct calibration_measured {
  std::string model;
  std::uint64_t parameters = 0, forward_macs_per_sample = 0;
  double wall_time_per_step_s = 0, wall_time_per_step_stdev_s = 0;
  double samples_per_s_wall = 0, samples_per_s_event = 0;
  std::map<std::string, double> op_time_ms; // per layer kind, of a step
  std::uint64_t op_time_steps = 0;          // the steps op_time_ms is the mean of
  std::uint64_t overflow_skipped_steps = 0;
  double learning_rate = 0;
  std::string algorithms; // cuDNN's: "search" or "heuristic"
  std::string pci_bus_id;
  std::uint64_t device_memory_used_bytes = 0;
  std::string backend; // the CUDA module's build
  nlohmann::json tool; // the dlsize that measured (report::tool_json)
};

struct calibration_document {
  std::string workload;
  std::string accelerator; // the name --accelerator emulated:FILE runs as
  std::uint64_t batch_size = 1;
  double compute_time_s = 0; // per batch
  std::optional<double> compute_time_stdev_s, compute_time_min_s, compute_time_median_s,
      compute_time_p95_s, compute_time_max_s;
  std::optional<double> samples_per_s;
  std::optional<std::string> gpu_name, precision, source;
  std::optional<std::uint64_t> steps, warmup_steps;
  std::optional<calibration_loss> loss;
  std::optional<calibration_measured> measured;
  nlohmann::json extra = nlohmann::json::object(); // a loss or measured of another shape
};

nlohmann::json to_json(const calibration_document& d);
// Checks every field as docs/gpu.md says (throws usage_error naming source and key); with a
// workload, the calibration must be for it.
calibration_document from_json(const nlohmann::json& j, const std::string& source,
                               std::string_view workload = {});

} // namespace dlsize::config
