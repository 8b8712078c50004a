#include "report/run_status.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace dlsize::report {

std::string stop_reason_text(const stop_event& e) {
  switch (e.cause) {
  case stop_cause::signal:
    return fmt::format("interrupted by signal {}", e.signal);
  case stop_cause::time_limit:
    return "time limit reached";
  case stop_cause::stall:
    return "stalled: " + e.detail;
  case stop_cause::none:
    break;
  }
  return "";
}

std::string to_string(stop_cause c) {
  return std::string(core::name_of(c));
}

stop_cause stop_cause_from_string(const std::string& s) {
  return core::read_enum<stop_cause>(s, "stop cause");
}

std::string time_limit_warning(bool storage_only) {
  return storage_only ? "stopped at --time-limit before all epochs were read"
                      : "stopped at --time-limit before all epochs ran";
}

std::string to_string(run_status s) {
  return std::string(core::name_of(s));
}

std::string to_string(rank_status s) {
  return std::string(core::name_of(s));
}

status_decision decide_status(const status_inputs& in) {
  status_decision d;
  const bool cut_short = in.stop.cause != stop_cause::none && !in.work_done;
  d.stopped_at_time_limit = cut_short && in.stop.cause == stop_cause::time_limit;
  if (!in.failure.empty()) {
    d.reason = in.failure;
  } else if (cut_short && !d.stopped_at_time_limit) {
    d.reason = in.stop_said.empty() ? stop_reason_text(in.stop) : in.stop_said;
  } else {
    for (const auto& p : in.problems)
      if (p.count) {
        d.reason = fmt::format("{} {}; first: {}", p.count, p.what, p.first);
        break;
      }
  }
  if (!in.missing_ranks.empty())
    d.reason += fmt::format("{}no results from {}", d.reason.empty() ? "" : "; ",
                            fmt::join(in.missing_ranks, ", "));
  d.status =
      d.reason.empty() && in.missing_ranks.empty() ? run_status::complete : run_status::incomplete;
  return d;
}

} // namespace dlsize::report
