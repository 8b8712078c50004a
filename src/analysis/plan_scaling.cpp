#include "analysis/plan_scaling.hpp"

#include <algorithm>
#include <cmath>

#include "core/figures.hpp"

namespace dlsize::analysis {
model::job_layout layout_for(std::uint64_t accelerators, std::uint64_t per_node) {
  if (accelerators <= per_node)
    return {1, std::max<std::uint64_t>(1, accelerators)};
  return {(accelerators + per_node - 1) / per_node, per_node};
}

scaling_point scaling_at(const scaling_inputs& in, std::uint64_t accelerators) {
  scaling_point p;
  p.accelerators = accelerators;
  p.layout = layout_for(accelerators, in.per_node);
  p.exposed_s = in.allreduce.exposed_s(p.layout, in.compute_s);
  const double step = in.compute_s + p.exposed_s;
  p.efficiency = step > 0 ? in.compute_s / step : 1;
  p.samples_per_s = static_cast<double>(accelerators) * in.batch / step;
  p.demand_bytes_per_s = core::demand_bytes_per_s(p.samples_per_s, in.sample_bytes);
  p.required_bytes_per_s = core::bandwidth_at_threshold(p.demand_bytes_per_s, in.au_threshold);
  return p;
}

std::vector<scaling_point> scaling_curve(const scaling_inputs& in, std::uint64_t largest) {
  std::vector<scaling_point> out;
  const std::uint64_t top = std::max(largest, 4 * in.per_node);
  for (std::uint64_t n = 1; n <= top; n *= 2)
    out.push_back(scaling_at(in, n));
  if (std::none_of(out.begin(), out.end(), [&](auto& p) { return p.accelerators == largest; })) {
    out.push_back(scaling_at(in, largest));
    std::sort(out.begin(), out.end(),
              [](auto& a, auto& b) { return a.accelerators < b.accelerators; });
  }
  return out;
}

std::uint64_t most_supported(const scaling_inputs& in, double bandwidth) {
  // The requirement grows with N (each added accelerator adds samples/s; the allreduce term
  // tends to a constant), so the first N past the bandwidth ends the search.
  std::uint64_t n = 0;
  while (n < 10'000'000 && scaling_at(in, n + 1).required_bytes_per_s <= bandwidth * (1 + 1e-12))
    ++n;
  return n;
}

void add_scaling(plan_reads& plan, const scaling_inputs& in, double storage_bandwidth,
                 std::uint64_t accelerators) {
  const std::uint64_t most = storage_bandwidth > 0 ? most_supported(in, storage_bandwidth) : 0;
  const std::uint64_t n = accelerators ? accelerators : std::max<std::uint64_t>(1, most);
  plan.accelerators = n;
  const scaling_point at = scaling_at(in, n);
  plan_scaling s;
  s.allreduce = in.allreduce;
  s.layout = at.layout;
  s.compute_s = in.compute_s;
  s.required_bytes_per_s_linear = plan.required_bytes_per_s;
  s.demand_bytes_per_s_linear = plan.demand_bytes_per_s;
  plan.required_bytes_per_s = at.required_bytes_per_s;
  plan.demand_bytes_per_s = at.demand_bytes_per_s;
  s.scaling_efficiency = at.efficiency;
  s.samples_per_s = at.samples_per_s;
  if (storage_bandwidth > 0 && plan.storage) {
    plan.storage->max_accelerators_at_threshold_linear =
        plan.storage->max_accelerators_at_threshold;
    plan.storage->max_accelerators_at_threshold = most;
    plan.expected_accelerator_utilization =
        core::au_at_bandwidth(storage_bandwidth, at.demand_bytes_per_s);
  }
  s.curve = scaling_curve(in, n);
  plan.scaling = std::move(s);
}

} // namespace dlsize::analysis
