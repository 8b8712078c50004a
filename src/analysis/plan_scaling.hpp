#pragma once
// `dlsize plan --allreduce`: the job's samples/s at N accelerators once every step also waits
// for the gradient allreduce (allreduce_model), so the bandwidth asked of storage follows what
// the job consumes, not N times one accelerator's demand. Efficiency(N) = compute / (compute +
// exposed allreduce); a job of N accelerators with A per node runs on ⌈N/A⌉ nodes (a partial
// last node counted as a full one).
#include <cstdint>
#include <vector>

#include "analysis/plan_document.hpp"
#include "config/allreduce_config.hpp"
#include "core/defaults.hpp"
#include "model/allreduce_model.hpp"

namespace dlsize::analysis {

struct scaling_inputs {
  config::allreduce_setup allreduce;
  std::uint64_t per_node = 8;
  double compute_s = 0;    // per batch
  double batch = 1;        // samples per batch
  double sample_bytes = 0; // mean
  double au_threshold = core::defaults::au_threshold;
};

model::job_layout layout_for(std::uint64_t accelerators, std::uint64_t per_node);

scaling_point scaling_at(const scaling_inputs& in, std::uint64_t accelerators);
// Counts 1, 2, 4, ... up to at least max(largest, 4 per node), and largest itself.
std::vector<scaling_point> scaling_curve(const scaling_inputs& in, std::uint64_t largest);
// The most accelerators whose requirement stays within bandwidth (0 when not even one).
std::uint64_t most_supported(const scaling_inputs& in, double bandwidth);

// Adds the curve, the allreduce's inputs and the planned count's scaled figures to a plan's read
// side; without a count given (accelerators 0) the plan is for the most the bandwidth supports.
void add_scaling(plan_reads& plan, const scaling_inputs& in, double storage_bandwidth,
                 std::uint64_t accelerators);

} // namespace dlsize::analysis
