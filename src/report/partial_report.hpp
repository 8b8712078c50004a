#pragma once
// The report a running bench rewrites every --status-interval in OUT.partial-<pid>: what the run
// is and how far it got, so that a run killed by SIGKILL or the OOM killer leaves a readable
// dlsize.report/1 (`partial: true`, status incomplete) that loses at most one interval.
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "report/bench_report.hpp"

namespace dlsize::report {

struct run_progress {
  double elapsed_s = 0;
  std::uint64_t read_bytes = 0;
  std::uint64_t samples = 0;
};

// r: new_bench_report(...) of the run; config: its replayable options.
bench_report partial_report(bench_report r, const nlohmann::json& config, const run_progress& p,
                            double interval_s);

// The report of a run that a stop ended before it read anything (a signal, --stall-timeout or
// --time-limit during a hung read of its manifest or index): the same shape, nothing measured,
// the reason given ("reading 'FILE': no progress for 2 s (--stall-timeout); ...").
bench_report stopped_before_run_report(bench_report r, const nlohmann::json& config,
                                       const std::string& reason);

} // namespace dlsize::report
