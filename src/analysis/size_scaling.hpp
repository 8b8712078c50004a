#pragma once
// `dlsize size` over runs that modelled the gradient allreduce (bench --allreduce): every count
// of the job spends part of its step in the allreduce, so the reads a count asks of storage
// follow what the job consumes at that count, efficiency(N) × N × one accelerator's demand,
// not N × that demand. The model is the one the runs recorded (topology.allreduce); the
// target's layout keeps the runs' accelerators per node unless size is told another.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/plan_scaling.hpp"
#include "analysis/sizing_document.hpp"
#include "report/bench_report.hpp"

namespace dlsize::analysis {

struct recorded_report {
  std::string file;
  const report::bench_report* report = nullptr;
};

// The allreduce the runs of one series modelled, or none when none did. per_node 0: the runs'
// own accelerators per node (the largest). Throws usage_error naming both files when some runs
// modelled one and others did not, or different ones (other algorithm, gradients or fabric):
// they are not one job.
std::optional<scaling_inputs> series_allreduce(const std::vector<recorded_report>& runs,
                                               std::uint64_t per_node);

// The job's modelled scaling efficiency at a count: compute ÷ (compute + exposed allreduce).
double efficiency_at(const scaling_inputs& in, double accelerators);

// The size document's scaling section: the model's inputs and the curve over counts (each
// count once, ascending; no measured efficiency yet).
sizing_scaling scaling_section(const scaling_inputs& in, std::vector<double> counts);

} // namespace dlsize::analysis
