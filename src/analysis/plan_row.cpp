#include "analysis/plan_row.hpp"

#include "core/figures.hpp"

namespace dlsize::analysis {

double row_au::au() const {
  const double consumed = static_cast<double>(accelerators) * demand_per_accelerator;
  return consumed > 0 ? core::share(bandwidth, consumed) : 0;
}

plan_row make_row(const row_au& row, double samples_per_s_per_accelerator, double au_threshold) {
  plan_row r;
  r.bandwidth_bytes_per_s = row.bandwidth;
  r.accelerators = row.accelerators;
  r.bandwidth_bytes_per_s_per_accelerator =
      row.accelerators ? row.bandwidth / static_cast<double>(row.accelerators) : 0;
  r.demand_bytes_per_s_per_accelerator = row.demand_per_accelerator;
  r.accelerator_utilization = row.au();
  r.samples_per_s = r.accelerator_utilization * samples_per_s_per_accelerator *
                    static_cast<double>(row.accelerators);
  r.meets_au_threshold = r.accelerator_utilization >= au_threshold;
  if (r.accelerator_utilization > 1)
    r.note = "more than the accelerators consume at AU 100 %: the row's workload, accelerator "
             "or count is not this plan's";
  return r;
}

} // namespace dlsize::analysis
