#include "analysis/plan.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"

namespace dlsize::analysis {

nlohmann::json make_plan(const plan_inputs& in) {
  const auto& p = in.accelerator.preset;
  if (!(p.compute_time_s > 0))
    throw usage_error(
        fmt::format("--compute-time: {} s per batch gives no finite demand. valid: a time above 0",
                    p.compute_time_s));
  const double bytes = in.workload.sample_bytes_mean;
  const double batch = static_cast<double>(p.batch_size);
  const double samples_per_s = batch / p.compute_time_s;
  const double demand = samples_per_s * bytes;
  const double needed_per_accel = demand * in.au_threshold;

  nlohmann::json out = {
      {"schema", kPlanSchema},
      {"workload", in.workload.name},
      {"accelerator",
       {{"type", in.accelerator.type},
        {"batch_size", p.batch_size},
        {"compute_time_s", p.compute_time_s},
        {"source", p.source}}},
      {"sample_bytes_mean", bytes},
      {"au_threshold", in.au_threshold},
      {"samples_per_s_per_accelerator", samples_per_s},
      {"demand_bytes_per_s_per_accelerator", demand},
      {"bytes_per_s_per_accelerator_at_threshold", needed_per_accel},
  };
  std::uint64_t n = in.accelerators;
  if (in.storage_bandwidth > 0) {
    const auto most = static_cast<std::uint64_t>(
        std::floor(in.storage_bandwidth / needed_per_accel * (1 + 1e-12)));
    out["storage_bandwidth_bytes_per_s"] = in.storage_bandwidth;
    out["max_accelerators_at_threshold"] = most;
    if (n == 0)
      n = std::max<std::uint64_t>(1, most);
  }
  if (n == 0)
    n = 1;
  const double nn = static_cast<double>(n);
  out["accelerators"] = n;
  out["required_bytes_per_s"] = nn * needed_per_accel;
  out["demand_bytes_per_s"] = nn * demand;
  if (in.storage_bandwidth > 0)
    out["expected_accelerator_utilization"] = std::min(1.0, in.storage_bandwidth / (nn * demand));
  // A valid run: 500 steps per epoch over all accelerators, and 5 × the clients' RAM.
  const double by_steps = static_cast<double>(kMinStepsPerEpoch) * nn * batch * bytes;
  nlohmann::json ds = {
      {"min_bytes_for_steps", by_steps},
      {"min_samples_for_steps", static_cast<double>(kMinStepsPerEpoch) * nn * batch}};
  double min_bytes = by_steps;
  if (in.client_ram > 0) {
    const double by_ram =
        kMinDatasetOverRam * static_cast<double>(in.client_ram) * static_cast<double>(in.clients);
    ds["min_bytes_for_ram"] = by_ram;
    ds["client_ram_bytes"] = in.client_ram;
    ds["clients"] = in.clients;
    min_bytes = std::max(min_bytes, by_ram);
  } else {
    ds["min_bytes_for_ram"] = nullptr;
  }
  ds["min_bytes"] = min_bytes;
  ds["min_samples"] = std::ceil(min_bytes / bytes);
  ds["rules"] = "MLPerf Storage: dataset >= 5 x the clients' RAM and >= 500 steps per epoch";
  out["dataset"] = ds;
  return out;
}

} // namespace dlsize::analysis
