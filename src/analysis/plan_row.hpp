#pragma once
// A published (or measured) row read back through the plan: a row gives its workload, its
// accelerator type and count, and the bandwidth it reached; the plan's demand per accelerator
// turns that into the AU the row ran at (AU × demand = bandwidth per accelerator), which MLPerf
// Storage publishes beside the bandwidth and so checks the plan's arithmetic.
#include <cstdint>

#include "analysis/plan_document.hpp"

namespace dlsize::analysis {

// What one row reached, from its bandwidth of samples' bytes (bytes/s, as MLPerf Storage
// reports train_io_mean_MB_per_second, MiB/s) over `accelerators` accelerators that each ask
// `demand` bytes/s at AU 100 %.
struct row_au {
  double bandwidth = 0, demand_per_accelerator = 0;
  std::uint64_t accelerators = 0;
  double au() const; // bandwidth ÷ (accelerators × demand); may exceed 1 (the row does not fit)
};

// The plan's row: the inputs, the AU, the samples/s it stands for, whether it meets
// `au_threshold`, and a note when the AU exceeds 100 % (more bandwidth than the accelerators
// can consume: the row's workload, accelerator or count is not the plan's).
plan_row make_row(const row_au& row, double samples_per_s_per_accelerator, double au_threshold);

} // namespace dlsize::analysis
