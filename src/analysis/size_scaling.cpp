#include "analysis/size_scaling.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "config/allreduce_config.hpp"
#include "core/error.hpp"

namespace dlsize::analysis {
namespace {

// The inputs that make two runs one job: the same algorithm, gradients, fabric and overlap.
std::string job_key(const config::allreduce_setup& s, double compute_s) {
  return fmt::format("{} {} B, intra {} B/s {} s, inter {} B/s {} s, overlap {}, backward {}, "
                     "compute {:.6g} s",
                     model::to_string(s.algorithm), s.gradient_bytes, s.fabric.intra_bytes_per_s,
                     s.fabric.intra_latency_s, s.fabric.inter_bytes_per_s, s.fabric.inter_latency_s,
                     s.overlap, s.backward_fraction, compute_s);
}

} // namespace

std::optional<scaling_inputs> series_allreduce(const std::vector<recorded_report>& runs,
                                               std::uint64_t per_node) {
  std::optional<scaling_inputs> out;
  std::string first_file, first_key, without;
  std::uint64_t largest_per_node = 1;
  for (const auto& r : runs) {
    const auto& t = r.report->topology;
    if (!t || !t->allreduce.has_value()) {
      if (without.empty())
        without = r.file;
      continue;
    }
    const auto rec = config::allreduce_from_json(report::section_to_json(*t->allreduce), r.file);
    const std::string key = job_key(rec.setup, rec.compute_s);
    if (!out) {
      out.emplace();
      out->allreduce = rec.setup;
      out->compute_s = rec.compute_s;
      first_file = r.file;
      first_key = key;
    } else if (key != first_key) {
      throw usage_error(fmt::format(
          "{} and {}: the runs of one series modelled different allreduces ({} against {}); "
          "size them apart (one folder or file list each)",
          first_file, r.file, first_key, key));
    }
    largest_per_node = std::max(largest_per_node, rec.layout.per_node);
  }
  if (out && !without.empty())
    throw usage_error(fmt::format(
        "{} and {}: one run modelled the allreduce (bench --allreduce) and the other did not; "
        "their samples/s are not one job's. Size them apart",
        first_file, without));
  if (out)
    out->per_node = per_node ? per_node : largest_per_node;
  return out;
}

double efficiency_at(const scaling_inputs& in, double accelerators) {
  const auto n = static_cast<std::uint64_t>(std::max(1.0, std::round(accelerators)));
  return scaling_at(in, n).efficiency;
}

sizing_scaling scaling_section(const scaling_inputs& in, std::vector<double> counts) {
  std::sort(counts.begin(), counts.end());
  counts.erase(std::unique(counts.begin(), counts.end()), counts.end());
  sizing_scaling out{in, {}};
  for (double c : counts) {
    // Without the batch's bytes the point's own demand figures mean nothing here: the sizing
    // gives the bandwidth beside it.
    const scaling_point p =
        scaling_at(in, static_cast<std::uint64_t>(std::max(1.0, std::round(c))));
    out.curve.push_back({p.accelerators, p.layout, p.exposed_s, p.efficiency});
  }
  return out;
}

} // namespace dlsize::analysis
