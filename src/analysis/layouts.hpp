#pragma once
// Scale-up against scale-out: the runs of one series that have equal accelerator counts on
// different numbers of nodes (real hosts, or a layout declared with --accelerators-per-node),
// side by side (a declared layout never beside real hosts): samples/s, efficiency against linear
// scaling from the series' smallest count, and the difference from the layout with the fewest
// nodes.
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/scaling_model.hpp"

namespace dlsize::analysis {

// One row per (real or declared, count, node count) at every count measured on two layouts or
// more of one kind (real hosts first, then declared layouts); empty when no count was. Each row:
// accelerators, nodes, declared, accelerators_per_node, runs, samples_per_s (median, min, max),
// efficiency_vs_linear, difference_vs_fewest_nodes (a fraction, against the same kind).
nlohmann::json layout_rows(const std::vector<run_point>& runs);

} // namespace dlsize::analysis
