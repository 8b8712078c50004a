#include "analysis/requirement.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "analysis/stats.hpp"
#include "core/error.hpp"
#include "core/figures.hpp"
#include "core/units.hpp"

namespace dlsize::analysis {
namespace {

// Planned demands within 0.1 % are one load (float noise in the reports' figures).
bool same_demand(double a, double b) {
  if (!std::isfinite(a) || !std::isfinite(b))
    return std::isfinite(a) == std::isfinite(b);
  return std::fabs(a - b) <= 1e-3 * std::max(std::fabs(a), std::fabs(b));
}

bool same_load(const workload_requirement& r, const requirement_run& run) {
  return r.workload == run.workload && r.accelerator == run.accelerator &&
         same_demand(r.planned, run.planned_per_accelerator);
}

std::string ratio_text(double r) {
  return fmt::format("×{:.3f}", r);
}

// Why the measured demand differs from the planned one: each factor found, then what is left.
std::vector<std::string> reasons_for(const workload_requirement& r,
                                     const std::vector<const requirement_run*>& runs) {
  std::vector<std::string> out;
  if (!(std::fabs(r.difference) > kRequirementDifference))
    return out;
  double explained = 1;
  std::vector<double> bps, profile_bytes, compute, profile_compute;
  for (const auto* run : runs) {
    bps.push_back(run->bytes_per_sample);
    profile_bytes.push_back(run->profile_sample_bytes);
    compute.push_back(run->compute_time_s);
    profile_compute.push_back(run->profile_compute_time_s);
  }
  const double amp = r.read_amplification;
  if (std::isfinite(amp) && std::fabs(amp - 1) > 0.01) {
    explained *= amp;
    out.push_back(fmt::format(
        "read amplification {}: the runs read {} per sample, the profile's samples are {} "
        "(O_DIRECT alignment, record headers, read-ahead)",
        ratio_text(amp), units::format_bytes_decimal(median(bps)),
        units::format_bytes_decimal(median(profile_bytes))));
  }
  const double c = median(compute), pc = median(profile_compute);
  if (std::isfinite(c) && std::isfinite(pc) && c > 0 && std::fabs(pc / c - 1) > 0.01) {
    explained *= pc / c;
    out.push_back(fmt::format("compute time {}: the accelerators measured {:.4g} ms per batch, "
                              "the profile plans {:.4g} ms",
                              ratio_text(pc / c), 1e3 * c, 1e3 * pc));
  }
  if (std::isfinite(r.hit_ratio) && r.hit_ratio > 0.05)
    out.push_back(fmt::format("a cache served {:.0f} % of the reads: the demand counts them, the "
                              "storage delivered that much less",
                              100 * r.hit_ratio));
  const double left = (1 + r.difference) / explained;
  if (std::fabs(left - 1) > kRequirementDifference)
    out.push_back(fmt::format("{} not explained by the figures above: the runs' AU counts time "
                              "the accelerators lost to more than data (step jitter, a modelled "
                              "allreduce, a busy host)",
                              ratio_text(left)));
  return out;
}

// The measured figures of one requirement from its runs.
void measure(workload_requirement& r, const std::vector<const requirement_run*>& runs,
             double alpha) {
  std::vector<run_point> points;
  std::vector<double> per_accelerator, thresholds, amp, hits;
  std::set<std::string> seen;
  for (const auto* run : runs) {
    points.push_back(run->point);
    thresholds.push_back(run->au_threshold);
    if (seen.insert(run->backend).second)
      r.backends.push_back(run->backend);
    const auto& p = run->point;
    if (report::client_side(p.limit)) {
      ++r.client_limited_runs;
      continue;
    }
    if (std::isfinite(p.accelerator_utilization) && p.accelerator_utilization > 0 &&
        p.accelerators > 0)
      per_accelerator.push_back(
          core::required_bandwidth(p.read_bytes_per_s, p.accelerator_utilization) / p.accelerators);
    if (run->profile_sample_bytes > 0)
      amp.push_back(run->bytes_per_sample / run->profile_sample_bytes);
    hits.push_back(p.hit_ratio);
  }
  r.runs = runs.size();
  const double th = median(thresholds);
  r.au_threshold = std::isfinite(th) ? th : r.au_threshold;
  r.pooled = analyse_scaling(points, r.au_threshold, alpha);
  r.planned_at_threshold = core::bandwidth_at_threshold(r.planned, r.au_threshold);
  r.measured = median(per_accelerator);
  r.measured_at_threshold = core::bandwidth_at_threshold(r.measured, r.au_threshold);
  r.read_amplification = median(amp);
  r.hit_ratio = stats_of(hits).median;
  if (r.planned > 0 && std::isfinite(r.measured))
    r.difference = r.measured / r.planned - 1;
  r.reasons = reasons_for(r, runs);
}

} // namespace

double workload_requirement::reads_at(double n) const {
  if (pooled.demand_line)
    return pooled.demand_line->predict(n);
  return n * planned;
}

double workload_requirement::half_width_at(double n) const {
  return pooled.demand_line ? pooled.requirement_half_width(n) : std::nan("");
}

std::string workload_requirement::basis() const {
  if (has_line())
    return fmt::format("measured: {}, pooled over {} backend{}", pooled.demand_basis,
                       backends.size(), backends.size() == 1 ? "" : "s");
  return fmt::format("planned: the profile's demand of {} per accelerator × the count{}",
                     units::format_rate_both(planned),
                     runs ? "; the runs give no line (fewer than two accelerator counts the "
                            "client did not limit)"
                          : "");
}

std::vector<workload_requirement> requirements_of(const std::vector<requirement_run>& runs,
                                                  double alpha) {
  if (runs.empty())
    throw usage_error("sizing: no runs to measure a requirement from");
  std::vector<workload_requirement> out;
  std::vector<std::vector<const requirement_run*>> members;
  for (const auto& run : runs) {
    std::size_t i = 0;
    while (i < out.size() && !same_load(out[i], run))
      ++i;
    if (i == out.size()) {
      out.push_back(planned_requirement(run.workload, run.accelerator, run.planned_per_accelerator,
                                        run.au_threshold));
      members.emplace_back();
    }
    members[i].push_back(&run);
  }
  for (std::size_t i = 0; i < out.size(); ++i)
    measure(out[i], members[i], alpha);
  return out;
}

workload_requirement planned_requirement(const std::string& workload,
                                         const std::string& accelerator,
                                         double demand_per_accelerator, double au_threshold) {
  workload_requirement r;
  r.workload = workload;
  r.accelerator = accelerator;
  r.au_threshold = au_threshold;
  r.planned = demand_per_accelerator;
  r.planned_at_threshold = core::bandwidth_at_threshold(demand_per_accelerator, au_threshold);
  return r;
}

const workload_requirement* find_requirement(const std::vector<workload_requirement>& reqs,
                                             const std::string& workload,
                                             const std::string& accelerator,
                                             double planned_per_accelerator) {
  for (const auto& r : reqs)
    if (r.workload == workload && r.accelerator == accelerator &&
        same_demand(r.planned, planned_per_accelerator))
      return &r;
  return nullptr;
}

} // namespace dlsize::analysis
