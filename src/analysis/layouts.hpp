#pragma once
// Scale-up against scale-out: the runs of one series that have equal accelerator counts on
// different numbers of nodes (real hosts, or a layout declared with --accelerators-per-node),
// side by side (a declared layout never beside real hosts): samples/s, efficiency against linear
// scaling from the series' smallest count, and the difference from the layout with the fewest
// nodes.
#include <cstddef>
#include <optional>
#include <vector>

#include "analysis/scaling_model.hpp"
#include "analysis/stats.hpp"

namespace dlsize::analysis {

// One count on one layout.
struct layout_row {
  double accelerators = 0, nodes = 0;
  bool declared = false; // a declared layout on one real host
  double accelerators_per_node = 0;
  std::size_t runs = 0;
  value_stats samples_per_s;
  std::optional<double> efficiency_vs_linear; // none: no linear reference
  // A fraction, against the layout of the same kind with the fewest nodes; none: no reference.
  std::optional<double> difference_vs_fewest_nodes;
};

// One row per (real or declared, count, node count) at every count measured on two layouts or
// more of one kind (real hosts first, then declared layouts); empty when no count was.
std::vector<layout_row> layout_rows(const std::vector<run_point>& runs);

} // namespace dlsize::analysis
