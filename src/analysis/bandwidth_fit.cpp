#include "analysis/bandwidth_fit.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "core/error.hpp"

namespace dlsize::analysis {
namespace {

std::map<double, std::vector<const bandwidth_run*>>
by_count(const std::vector<bandwidth_run>& runs) {
  std::map<double, std::vector<const bandwidth_run*>> out;
  for (const auto& r : runs)
    out[r.count].push_back(&r);
  return out;
}

} // namespace

std::optional<linear_fit> line_over_counts(const std::vector<bandwidth_run>& runs) {
  std::vector<double> x, y;
  for (const auto& r : runs) {
    x.push_back(r.count);
    y.push_back(r.bytes_per_s);
  }
  if (by_count(runs).size() < 2)
    return std::nullopt;
  return fit_line(x, y);
}

std::vector<std::string> cluster_warnings(const std::vector<bandwidth_run>& runs,
                                          const std::string& unit) {
  std::vector<std::string> warnings;
  for (const auto& [n, group] : by_count(runs)) {
    if (group.size() < 2)
      continue;
    std::vector<double> v;
    for (const auto* r : group)
      v.push_back(r->bytes_per_s);
    const auto st = stats_of(v);
    if (!(st.median > 0))
      continue;
    const double spread = (st.max - st.min) / st.median;
    if (spread > kClusterSpread) {
      std::vector<std::string> files;
      for (const auto* r : group)
        files.push_back(fmt::format("{} ({:.1f} MB/s)", r->file, r->bytes_per_s / 1e6));
      warnings.push_back(
          fmt::format("the repeats at {} {} spread {:.1f} % (beyond {:.0f} %): two clusters, not "
                      "noise; a backend or setting changed between them? {}",
                      n, unit, 100 * spread, 100 * kClusterSpread, fmt::join(files, ", ")));
    }
  }
  return warnings;
}

void keep_practical_knee(knee_test& knee, bool fails_beyond) {
  if (!knee.chosen)
    return;
  const auto& h = knee.hinge;
  if (h.slope_after <= kPracticalKneeSlopeRatio * h.slope_before || fails_beyond)
    return;
  knee.chosen = false;
  knee.reason = fmt::format(
      "no knee in practice: the hinge fits better (F = {:.4g}, p = {:.3g}) but its second slope "
      "is {:.0f} % of the first (a knee needs at most {:.0f} %, or AU failing beyond it)",
      knee.f, knee.p_value, 100 * h.slope_after / h.slope_before, 100 * kPracticalKneeSlopeRatio);
}

bandwidth_fit fit_bandwidth(const std::vector<bandwidth_run>& runs,
                            const std::string& unit_singular, double alpha) {
  if (runs.empty())
    throw usage_error("sizing: a series without runs");
  bandwidth_fit f;
  std::vector<double> x, y;
  for (const auto& [n, group] : by_count(runs)) {
    std::vector<double> v;
    for (const auto* r : group) {
      v.push_back(r->bytes_per_s);
      x.push_back(r->count);
      y.push_back(r->bytes_per_s);
    }
    f.counts.push_back({n, group.size(), stats_of(v)});
    f.best_bytes_per_s = std::max(f.best_bytes_per_s, f.counts.back().bytes_per_s.median);
  }
  const std::string plural = unit_singular + "s";
  f.line = line_over_counts(runs);
  if (!f.line)
    f.warnings.push_back(fmt::format("every run has {} {}: no fit; sweep two or more counts",
                                     f.counts.front().count, plural));
  else if (f.line->n < 3)
    f.warnings.push_back("fewer than three runs in the fit: no intervals; repeat the runs (a "
                         "sweep's repeats) to get them");
  f.knee = test_knee(x, y, alpha, unit_singular);
  keep_practical_knee(f.knee, false);
  for (auto& w : cluster_warnings(runs, plural))
    f.warnings.push_back(std::move(w));
  return f;
}

} // namespace dlsize::analysis
