#include "analysis/allreduce_fit.hpp"

#include "config/allreduce_config.hpp"

// The allreduce calibration document (dlsize calibrate --allreduce): what config/allreduce_config
// reads back as --allreduce-calibration.

namespace dlsize::analysis {

nlohmann::json allreduce_calibration_json(const allreduce_sweep& s, const allreduce_fit& f,
                                          const std::string& source) {
  nlohmann::json sizes = nlohmann::json::array();
  for (const auto& p : s.samples)
    sizes.push_back({{"bytes", p.bytes},
                     {"time_s", p.time_s},
                     {"algbw_bytes_per_s", p.algbw},
                     {"busbw_bytes_per_s", p.busbw}});
  return {{"schema", config::kAllreduceCalibrationSchema},
          {"source", "nccl-tests all_reduce_perf output " + source},
          {"device", s.device},
          {"ranks", s.ranks},
          {"nodes", s.nodes},
          {"link", f.link},
          {"latency_s", f.latency_s},
          {"latency_per_hop_s", f.latency_per_hop_s},
          {"bus_bandwidth_bytes_per_s", f.bus_bytes_per_s},
          {"max_busbw_bytes_per_s", f.max_busbw},
          {"max_relative_residual", f.max_relative_residual},
          {"model", "t(S) = L + 2(n-1)/n * S / B, least squares on relative residuals"},
          {"sizes", sizes}};
}

} // namespace dlsize::analysis
