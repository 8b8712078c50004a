#include "analysis/plan_row.hpp"

#include "core/figures.hpp"

namespace dlsize::analysis {

double row_au::au() const {
  const double consumed = static_cast<double>(accelerators) * demand_per_accelerator;
  return consumed > 0 ? core::share(bandwidth, consumed) : 0;
}

nlohmann::json row_json(const row_au& row, double samples_per_s_per_accelerator,
                        double au_threshold) {
  const double au = row.au();
  nlohmann::json j = {
      {"bandwidth_bytes_per_s", row.bandwidth},
      {"accelerators", row.accelerators},
      {"bandwidth_bytes_per_s_per_accelerator",
       row.accelerators ? row.bandwidth / static_cast<double>(row.accelerators) : 0},
      {"demand_bytes_per_s_per_accelerator", row.demand_per_accelerator},
      {"accelerator_utilization", au},
      {"samples_per_s", au * samples_per_s_per_accelerator * static_cast<double>(row.accelerators)},
      {"meets_au_threshold", au >= au_threshold}};
  if (au > 1)
    j["note"] = "more than the accelerators consume at AU 100 %: the row's workload, accelerator "
                "or count is not this plan's";
  return j;
}

} // namespace dlsize::analysis
