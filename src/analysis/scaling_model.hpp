#pragma once
// How one storage backend scales with the accelerators: the measured table per accelerator
// count, the straight-line fit of bandwidth against the count, the knee where bandwidth stops
// growing (sizing/knee), the count where AU falls below the threshold, the backend's ceiling
// and the line that gives the requirement of larger counts (fitted below the knee only).
#include <optional>
#include <string>
#include <vector>

#include "analysis/bandwidth_fit.hpp"
#include "analysis/knee.hpp"
#include "analysis/linear_fit.hpp"
#include "analysis/stats.hpp"
#include "core/defaults.hpp"
#include "report/limit_verdict.hpp"

namespace dlsize::analysis {

// One run, as numbers taken from its report.
struct run_point {
  std::string file;
  double accelerators = 0;
  double read_bytes_per_s = 0; // bytes the reads returned per second (cache hits included)
  double samples_per_s = 0;
  double samples_per_s_per_accelerator = 0;
  double accelerator_utilization = std::nan(""); // NaN when the run has none
  // AU with a modelled allreduce's exposed time counted as the accelerator's own (the verdict's,
  // summary.storage_au); NaN: the same as accelerator_utilization (no allreduce).
  double storage_au = std::nan("");
  // Nodes the accelerators ran on: the declared layout's (--accelerators-per-node), else the
  // real hosts'.
  double nodes = 1;
  bool declared_nodes = false; // nodes is a declared layout's, on one real host
  bool au_pass = false;
  double hit_ratio = std::nan(""); // measured share of reads a cache served; NaN: not known
  // What held AU below 1 (analysis/limit_verdict): client-limited runs stay out of the
  // requirement, storage-limited runs make the capability.
  report::limit_kind limit = report::limit_kind::unknown;
};

// The model's own error in a prediction, as a share of the prediction, at least: the straight
// line missed a measured run by a 0.1 % curvature (docs/performance.md); five times that.
inline constexpr double kModelErrorFloor = 0.005;

// The runs of one accelerator count.
struct count_row {
  double accelerators = 0;
  std::size_t runs = 0;
  value_stats read_bytes_per_s, samples_per_s, samples_per_s_per_accelerator;
  value_stats accelerator_utilization, hit_ratio;
  value_stats storage_au; // the verdict's AU (accelerator_utilization without an allreduce)
  std::size_t au_passes = 0;
  // Median samples/s per accelerator ÷ that of the smallest count.
  double scaling_efficiency = std::nan("");
};

struct scaling_analysis {
  double au_threshold = core::defaults::au_threshold;
  std::vector<count_row> counts;  // ascending accelerator counts
  std::optional<linear_fit> line; // every run; none with fewer than two distinct counts
  knee_test knee;
  // By the verdict's AU (storage_au): a modelled allreduce's share is the job's, not storage's.
  std::optional<double> au_knee;      // smallest count whose median AU is below the threshold
  std::optional<double> most_passing; // largest count up to which every median AU passes
  double best_bytes_per_s = 0;        // highest median bandwidth measured
  // What the backend delivers: the highest median bandwidth of its storage-limited runs, or
  // of the runs past a knee, never below the best measured. None when storage never limited.
  std::optional<double> ceiling;
  std::string ceiling_source;
  // What the backend delivers is known only from below: no storage-limited run or knee made the
  // ceiling, or the best measured count (which raised it) was held back by the client.
  bool ceiling_lower_bound = true;
  std::size_t storage_limited_runs = 0, client_limited_runs = 0;
  // The requirement's line: bytes read ÷ AU (the reads at AU 1) against the count, over every
  // run the client did not limit. None with fewer than two distinct counts there.
  std::optional<linear_fit> demand_line;
  std::string demand_basis;
  // Run-to-run variation of the repeats' bytes read ÷ AU (pooled coefficient of variation)
  // and the model's error (relative lack of fit of the count medians, at least
  // kModelErrorFloor): both widen the requirement's prediction interval.
  double repeat_cv = 0, model_cv = kModelErrorFloor;
  std::vector<std::string> warnings;

  // Half-width of the 95 % prediction interval of the requirement at x: the line's own
  // uncertainty, a new run's noise (the repeats' variation times the level; the fit's residuals
  // without repeats) and the model's error, times x ÷ the largest measured count past it. NaN
  // without a line of three runs or more.
  double requirement_half_width(double x) const;

  double smallest() const { return counts.empty() ? 0 : counts.front().accelerators; }
  double largest() const { return counts.empty() ? 0 : counts.back().accelerators; }
  bool knee_found() const { return knee.chosen; }
};

// Analyses the runs of one backend. Throws usage_error when runs is empty.
scaling_analysis analyse_scaling(const std::vector<run_point>& runs, double au_threshold,
                                 double alpha = kKneeAlpha);

} // namespace dlsize::analysis
