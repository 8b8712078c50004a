#pragma once
// `dlsize size`: bench reports grouped into series (one workload, accelerator type and backend
// each, and one cache mode and dataset size), each analysed by the sizing model and projected
// to target accelerator counts and data growth. The result is the sizing document,
// "schema": "dlsize.sizing/1" (docs/sizing.md, docs/sizing.schema.json).
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/knee.hpp"
#include "analysis/projection.hpp"
#include "analysis/report_set.hpp"
#include "report/rules_edition.hpp"

namespace dlsize::analysis {

inline constexpr const char* kSizingSchema = "dlsize.sizing/1";

struct sizing_request {
  std::vector<double> targets = {64, 128, 256};
  std::vector<double> growth = {1, 2, 4};
  double headroom = 1.2;
  double nic_bandwidth = 0;       // line rate per client, bytes/s; 0: not given
  double nic_efficiency = 0.8;    // share of the line rate reached in practice
  std::uint64_t clients = 1;      // clients of the target cluster (with nic_bandwidth)
  double front_end_bandwidth = 0; // the storage front end's limit; 0: not given
  analysis::cache_model_kind cache_model = analysis::cache_model_kind::automatic;
  double cache_bytes = -1; // --client-ram × --clients; < 0: from the reports
  // The target's accelerators per node for a modelled allreduce (--accelerators-per-node);
  // 0: as in the runs.
  std::uint64_t accelerators_per_node = 0;
  double alpha = analysis::kKneeAlpha;
  // The MLPerf Storage rules each measured point is judged by (--rules).
  report::rules_edition rules = report::kDefaultRules;
};

// Throws usage_error when no report can be sized (none is a complete training run), naming
// the files and why each was left out.
nlohmann::json make_sizing(const report_inputs& in, const sizing_request& req,
                           const nlohmann::json& command_line);

} // namespace dlsize::analysis
