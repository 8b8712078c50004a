#include "report/partial_report.hpp"

#include <fmt/format.h>

#include "report/report_io.hpp"

namespace dlsize::report {

bench_report partial_report(bench_report r, const nlohmann::json& config, const run_progress& p,
                            double interval_s) {
  const double el = p.elapsed_s;
  r.config = config;
  r.partial = true;
  progress_section g;
  g.elapsed_s = el;
  g.read_bytes = p.read_bytes;
  g.samples = p.samples;
  g.read_bytes_per_s = el > 0 ? static_cast<double>(p.read_bytes) / el : 0.0;
  g.samples_per_s = el > 0 ? static_cast<double>(p.samples) / el : 0.0;
  g.updated_at = utc_now();
  r.progress = std::move(g);
  r.warnings = std::vector<std::string>{};
  r.status = run_status::incomplete;
  r.reason = fmt::format("the run was still going {:.0f} s after its start (a partial report, "
                         "rewritten every {:.0f} s; the process ended without its final report)",
                         el, interval_s);
  return r;
}

bench_report stopped_before_run_report(bench_report r, const nlohmann::json& config,
                                       const std::string& reason) {
  r = partial_report(std::move(r), config, {}, 0);
  r.reason = "stopped before the run: " + reason;
  return r;
}

} // namespace dlsize::report
