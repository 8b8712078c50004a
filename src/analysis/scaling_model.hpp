#pragma once
// How one storage backend scales with the accelerators: the measured table per accelerator
// count, the straight-line fit of bandwidth against the count, the knee where bandwidth stops
// growing (sizing/knee), the count where AU falls below the threshold, the backend's ceiling
// and the line that gives the requirement of larger counts (fitted below the knee only).
#include <optional>
#include <string>
#include <vector>

#include "analysis/knee.hpp"
#include "analysis/linear_fit.hpp"
#include "analysis/stats.hpp"

namespace dlsize::analysis {

// One run, as numbers taken from its report.
struct run_point {
  std::string file;
  double accelerators = 0;
  double read_bytes_per_s = 0; // bytes the reads returned per second (cache hits included)
  double samples_per_s = 0;
  double samples_per_s_per_accelerator = 0;
  double accelerator_utilization = std::nan(""); // NaN when the run has none
  bool au_pass = false;
  double hit_ratio = std::nan(""); // measured share of reads a cache served; NaN: not known
};

// The runs of one accelerator count.
struct count_row {
  double accelerators = 0;
  std::size_t runs = 0;
  value_stats read_bytes_per_s, samples_per_s, samples_per_s_per_accelerator;
  value_stats accelerator_utilization, hit_ratio;
  std::size_t au_passes = 0;
  // Median samples/s per accelerator ÷ that of the smallest count.
  double scaling_efficiency = std::nan("");
};

struct scaling_analysis {
  double au_threshold = 0.9;
  std::vector<count_row> counts;  // ascending accelerator counts
  std::optional<linear_fit> line; // every run; none with fewer than two distinct counts
  knee_test knee;
  std::optional<double> au_knee;      // smallest count whose median AU is below the threshold
  std::optional<double> most_passing; // largest count up to which every median AU passes
  double best_bytes_per_s = 0;        // highest median bandwidth measured
  std::optional<double> ceiling;      // median bandwidth of the runs past the knee
  // The requirement's line: the runs below the knee (all runs without one). None with fewer
  // than two distinct counts there.
  std::optional<linear_fit> demand_line;
  std::string demand_basis;
  std::vector<std::string> warnings;

  double smallest() const { return counts.empty() ? 0 : counts.front().accelerators; }
  double largest() const { return counts.empty() ? 0 : counts.back().accelerators; }
  bool knee_found() const { return knee.chosen; }
};

// Analyses the runs of one backend. Throws usage_error when runs is empty.
scaling_analysis analyse_scaling(const std::vector<run_point>& runs, double au_threshold,
                                 double alpha = kKneeAlpha);

} // namespace dlsize::analysis
