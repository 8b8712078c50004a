#pragma once
// `dlsize plan`: the what-if that needs no runs. From a profile's accelerator preset: the
// read rate one accelerator needs (batch × bytes per sample / compute time), the bandwidth N
// accelerators need to reach the AU threshold (AU = rate / demand when storage limits, so
// N · demand · threshold), the most accelerators a bandwidth supports at the threshold, and the
// dataset a valid run needs (MLPerf Storage: ≥ 5 × the clients' RAM and ≥ 500 steps per epoch).
#include <cstdint>

#include <nlohmann/json.hpp>

#include "config/accelerator_spec.hpp"
#include "config/workload.hpp"

namespace dlsize::analysis {

inline constexpr const char* kPlanSchema = "dlsize.plan/1";
inline constexpr std::uint64_t kMinStepsPerEpoch = 500;
inline constexpr double kMinDatasetOverRam = 5.0;

struct plan_inputs {
  config::workload_profile workload;
  config::accelerator_spec accelerator;
  double au_threshold = 0.9;
  double storage_bandwidth = 0;   // bytes/s; 0: not given
  std::uint64_t accelerators = 0; // 0: not given
  std::uint64_t client_ram = 0;   // bytes per client; 0: not given
  std::uint64_t clients = 1;
};

// The plan as JSON ("schema": "dlsize.plan/1"). Throws usage_error for a zero compute time
// (no finite demand).
nlohmann::json make_plan(const plan_inputs& in);

} // namespace dlsize::analysis
