#include "report/partial_report.hpp"

#include <fmt/format.h>

#include "report/report_io.hpp"

namespace dlsize::report {

nlohmann::json partial_report(const nlohmann::json& header, const nlohmann::json& config,
                              const run_progress& p, double interval_s) {
  const double el = p.elapsed_s;
  nlohmann::json r = header;
  r["config"] = config;
  r["partial"] = true;
  r["progress"] = {{"elapsed_s", el},
                   {"read_bytes", p.read_bytes},
                   {"samples", p.samples},
                   {"read_bytes_per_s", el > 0 ? static_cast<double>(p.read_bytes) / el : 0.0},
                   {"samples_per_s", el > 0 ? static_cast<double>(p.samples) / el : 0.0},
                   {"updated_at", utc_now()}};
  r["warnings"] = nlohmann::json::array();
  r["status"] = "incomplete";
  r["reason"] = fmt::format("the run was still going {:.0f} s after its start (a partial report, "
                            "rewritten every {:.0f} s; the process ended without its final report)",
                            el, interval_s);
  return r;
}

nlohmann::json stopped_before_run_report(const nlohmann::json& header, const nlohmann::json& config,
                                         const std::string& reason) {
  nlohmann::json r = partial_report(header, config, {}, 0);
  r["reason"] = "stopped before the run: " + reason;
  return r;
}

} // namespace dlsize::report
