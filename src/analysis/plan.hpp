#pragma once
// `dlsize plan`: the what-if that needs no runs. From a profile's accelerator preset: the
// read rate one accelerator needs (batch × bytes per sample / compute time), the bandwidth N
// accelerators need to reach the AU threshold (AU = rate / demand when storage limits, so
// N · demand · threshold), the most accelerators a bandwidth supports at the threshold, and the
// dataset a valid run needs (MLPerf Storage: ≥ 5 × the clients' RAM and ≥ 500 steps per epoch).
// Bytes the storage serves include the read amplification of the cache mode and layout
// (analysis/read_amplification); the clients' NICs (line rate × efficiency × clients) cap
// what any storage can deliver; with a dataset size, the epoch time and time to train.
#include <cstdint>

#include <nlohmann/json.hpp>

#include "config/accelerator_spec.hpp"
#include "config/workload.hpp"
#include "io/engine.hpp"
#include "report/mlperf_validity.hpp"

namespace dlsize::analysis {

inline constexpr const char* kPlanSchema = "dlsize.plan/1";
inline constexpr std::uint64_t kMinStepsPerEpoch = report::kMlperfMinStepsPerEpoch;
inline constexpr double kMinDatasetOverRam = report::kMlperfMinDatasetOverRam;

struct plan_inputs {
  config::workload_profile workload;
  config::accelerator_spec accelerator;
  double au_threshold = 0.9;
  double storage_bandwidth = 0;   // bytes/s; 0: not given
  std::uint64_t accelerators = 0; // 0: not given
  std::uint64_t client_ram = 0;   // bytes per client; 0: not given
  std::uint64_t clients = 1;
  io::cache_mode cache = io::cache_mode::direct; // for the read amplification
  std::uint32_t request_size = 1u << 20;         // bytes per request, for IOPS
  double dataset_bytes = 0;                      // for epoch time; 0: not given
  double epochs = 0;                             // for the time to train; 0: not given
  double nic_bandwidth = 0;                      // line rate per client, bytes/s; 0: none
  double nic_efficiency = 0.8;                   // share of the line rate reached in practice
};

// The plan as JSON ("schema": "dlsize.plan/1"). Throws usage_error for a zero compute time
// (no finite demand).
nlohmann::json make_plan(const plan_inputs& in);

} // namespace dlsize::analysis
