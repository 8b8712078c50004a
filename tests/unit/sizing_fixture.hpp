#pragma once
// What the unit tests that size hand-made bench reports share: the sizing document as JSON, and
// the summary of a training run whose accelerators each ask 40 MB/s (350 samples/s at full AU).
#include <nlohmann/json.hpp>

#include "analysis/sizing_report.hpp"

namespace dlsize::test {

// The sizing document of the inputs, as its JSON.
inline nlohmann::json sizing_json(const analysis::report_inputs& in,
                                  const analysis::sizing_request& req,
                                  const nlohmann::json& command_line) {
  return to_json(analysis::make_sizing(in, req, command_line));
}

// A report's summary of n accelerators at AU au, reading bw bytes/s.
inline nlohmann::json training_summary(double n, double au, double bw) {
  return {{"read_bytes_per_s", bw},
          {"samples_per_s", n * 350 * au},
          {"samples_per_s_per_accelerator", 350 * au},
          {"accelerator_utilization", au},
          {"au_threshold", 0.9},
          {"au_pass", au >= 0.9},
          {"demand_bytes_per_s_per_accelerator", 40e6}};
}

} // namespace dlsize::test
