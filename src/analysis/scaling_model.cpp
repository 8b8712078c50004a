#include "analysis/scaling_model.hpp"

#include <map>

#include <fmt/format.h>

#include "core/error.hpp"

namespace dlsize::analysis {
namespace {

std::vector<count_row> rows_of(const std::vector<run_point>& runs) {
  std::map<double, std::vector<const run_point*>> by_count;
  for (const auto& r : runs)
    by_count[r.accelerators].push_back(&r);
  std::vector<count_row> rows;
  for (const auto& [n, group] : by_count) {
    count_row row;
    row.accelerators = n;
    row.runs = group.size();
    std::vector<double> bw, sps, per, au, hit;
    for (const auto* r : group) {
      bw.push_back(r->read_bytes_per_s);
      sps.push_back(r->samples_per_s);
      per.push_back(r->samples_per_s_per_accelerator);
      au.push_back(r->accelerator_utilization);
      hit.push_back(r->hit_ratio);
      if (r->au_pass)
        ++row.au_passes;
    }
    row.read_bytes_per_s = stats_of(bw);
    row.samples_per_s = stats_of(sps);
    row.samples_per_s_per_accelerator = stats_of(per);
    row.accelerator_utilization = stats_of(au);
    row.hit_ratio = stats_of(hit);
    rows.push_back(row);
  }
  const double base = rows.front().samples_per_s_per_accelerator.median;
  for (auto& row : rows)
    if (base > 0)
      row.scaling_efficiency = row.samples_per_s_per_accelerator.median / base;
  return rows;
}

std::optional<linear_fit> line_of(const std::vector<const run_point*>& runs) {
  std::vector<double> x, y;
  for (const auto* r : runs) {
    x.push_back(r->accelerators);
    y.push_back(r->read_bytes_per_s);
  }
  std::vector<double> u = x;
  std::sort(u.begin(), u.end());
  if (std::unique(u.begin(), u.end()) - u.begin() < 2)
    return std::nullopt;
  return fit_line(x, y);
}

} // namespace

scaling_analysis analyse_scaling(const std::vector<run_point>& runs, double au_threshold,
                                 double alpha) {
  if (runs.empty())
    throw usage_error("sizing: a series without runs");
  scaling_analysis a;
  a.au_threshold = au_threshold;
  a.counts = rows_of(runs);
  for (const auto& row : a.counts)
    a.best_bytes_per_s = std::max(a.best_bytes_per_s, row.read_bytes_per_s.median);

  std::vector<const run_point*> all;
  std::vector<double> x, y;
  for (const auto& r : runs) {
    all.push_back(&r);
    x.push_back(r.accelerators);
    y.push_back(r.read_bytes_per_s);
  }
  a.line = line_of(all);
  if (!a.line)
    a.warnings.push_back(
        fmt::format("every run has {} accelerators: no fit; sweep two or more counts",
                    a.counts.front().accelerators));
  a.knee = test_knee(x, y, alpha);

  bool passing = true;
  for (const auto& row : a.counts) {
    const double au = row.accelerator_utilization.median;
    const bool pass = std::isfinite(au) && au >= au_threshold;
    if (!pass && !a.au_knee)
      a.au_knee = row.accelerators;
    passing = passing && pass;
    if (passing)
      a.most_passing = row.accelerators;
  }

  if (a.knee.chosen) {
    std::vector<double> past;
    std::vector<const run_point*> below;
    for (const auto& r : runs) {
      if (r.accelerators > a.knee.hinge.breakpoint)
        past.push_back(r.read_bytes_per_s);
      else
        below.push_back(&r);
    }
    a.ceiling = median(past);
    a.demand_line = line_of(below);
    a.demand_basis =
        fmt::format("the runs at or below the knee ({:.3g} accelerators)", a.knee.hinge.breakpoint);
    if (!a.demand_line)
      a.warnings.push_back("fewer than two accelerator counts below the knee: the requirement of "
                           "larger counts comes from the measured demand per accelerator");
  } else {
    a.demand_line = a.line;
    a.demand_basis = "every run (no knee)";
  }
  if (a.demand_line && a.demand_line->n < 3)
    a.warnings.push_back("fewer than three runs in the requirement's fit: no intervals; repeat "
                         "the runs (a sweep's repeats) to get them");
  return a;
}

} // namespace dlsize::analysis
