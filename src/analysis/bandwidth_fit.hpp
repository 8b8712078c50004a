#pragma once
// Bandwidth against a count (accelerators for reads, ranks for checkpoint writes and restores):
// the pieces of the sizing model that both paths share, so that the honesty rules are one code:
// no line from a single count, the knee test of analysis/knee, a knee only where it matters in
// practice, and repeats that spread beyond MLPerf Storage's 5 % named as two clusters.
#include <optional>
#include <string>
#include <vector>

#include "analysis/knee.hpp"
#include "analysis/linear_fit.hpp"
#include "analysis/stats.hpp"

namespace dlsize::analysis {

// A knee matters in practice only when the second slope is at most this share of the first,
// or AU fails beyond it (a 211 → 202 MB/s bend on tmpfs was significant and meaningless).
inline constexpr double kPracticalKneeSlopeRatio = 0.8;
// Repeats of one count whose spread ((max − min) ÷ median) exceeds MLPerf Storage's 5 % are two
// clusters, not noise.
inline constexpr double kClusterSpread = 0.05;

// One run: its report, its count and its bandwidth in bytes/s.
struct bandwidth_run {
  std::string file;
  double count = 0;
  double bytes_per_s = 0;
};

// The least-squares line of bandwidth against the count; none with fewer than two distinct
// counts (a line through one count is no evidence of scaling).
std::optional<linear_fit> line_over_counts(const std::vector<bandwidth_run>& runs);

// A warning for every count whose repeats spread beyond kClusterSpread. unit: the count's noun
// in the plural ("accelerators", "ranks").
std::vector<std::string> cluster_warnings(const std::vector<bandwidth_run>& runs,
                                          const std::string& unit);

// Undoes a statistically chosen knee that does not matter: its second slope above
// kPracticalKneeSlopeRatio of the first while nothing fails beyond it (fails_beyond: the read
// path's AU below the threshold past the breakpoint).
void keep_practical_knee(knee_test& knee, bool fails_beyond);

// The runs of one count.
struct bandwidth_count {
  double count = 0;
  std::size_t runs = 0;
  value_stats bytes_per_s;
};

// Bandwidth against the count for a path that has no AU (checkpoint writes, restores): the
// counts' medians and ranges, the line, the knee test (practical rule included), the best
// median, and warnings for thin evidence and clusters.
struct bandwidth_fit {
  std::vector<bandwidth_count> counts; // ascending
  std::optional<linear_fit> line;
  knee_test knee;
  double best_bytes_per_s = 0;
  std::vector<std::string> warnings;
};

// unit_singular: "rank" (knee reasons say "rank counts", "knee at 4 ranks"). Throws
// usage_error when runs is empty.
bandwidth_fit fit_bandwidth(const std::vector<bandwidth_run>& runs,
                            const std::string& unit_singular, double alpha = kKneeAlpha);

} // namespace dlsize::analysis
