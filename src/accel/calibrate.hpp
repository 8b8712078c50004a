#pragma once
// `dlsize calibrate`: runs the workload's real training step on a GPU with synthetic data that
// stays on the device (no storage, no copies), warm-up steps then measured steps, and makes a
// calibration (dlsize.calibration/1) whose compute time per batch `--accelerator emulated:FILE`
// then holds. The figure is the GPU busy time of a step from CUDA events.
#include <cstdint>
#include <string>
#include <vector>

#include "accel/cuda_accelerator.hpp"
#include "config/calibration_document.hpp"
#include "config/workload.hpp"

namespace dlsize::accel {

struct calibrate_options {
  config::workload_profile workload;
  cuda_options cuda;
  std::uint64_t steps = 50;
  std::uint64_t warmup = 10;
  bool progress = false; // a line per step on stderr
};

// Mean, spread and order statistics of step times in seconds.
struct time_summary {
  double mean = 0, stdev = 0, min = 0, median = 0, p95 = 0, max = 0;
};
// Throws usage_error for an empty list. stdev is the sample standard deviation (0 for one).
time_summary summarize(std::vector<double> seconds);

// "NVIDIA H200" -> "nvidia-h200": the calibration's accelerator name.
std::string accelerator_slug(const std::string& gpu_name);

// Runs the calibration; throws usage_error when the backend, driver or device is missing, the
// workload has no model.layers or an option is out of range; run_error on CUDA failures.
config::calibration_document calibrate(const calibrate_options& opt);

} // namespace dlsize::accel
