#pragma once
// The report a running bench rewrites every --status-interval in OUT.partial-<pid>: what the run
// is and how far it got, so that a run killed by SIGKILL or the OOM killer leaves a readable
// dlsize.report/1 (`partial: true`, status incomplete) that loses at most one interval.
#include <cstdint>

#include <nlohmann/json.hpp>

namespace dlsize::report {

struct run_progress {
  double elapsed_s = 0;
  std::uint64_t read_bytes = 0;
  std::uint64_t samples = 0;
};

// header: report_header("bench", ...) of the run; config: its replayable options.
nlohmann::json partial_report(const nlohmann::json& header, const nlohmann::json& config,
                              const run_progress& p, double interval_s);

} // namespace dlsize::report
