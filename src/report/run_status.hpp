#pragma once
// How a run ended, as values, and the one place that turns them into the report's words: a
// stop's cause, the run's and a rank's status, and the status decision that storage-only and
// training runs share.
#include <cstdint>
#include <string>
#include <vector>

#include "core/stop.hpp"

namespace dlsize::report {

// The report's reason for a stop: "interrupted by signal 2", "time limit reached", "stalled:
// DETAIL" ("" for none).
std::string stop_reason_text(const stop_event& e);
// The cause's name where results travel between ranks: "none", "signal", "time_limit", "stall".
std::string to_string(stop_cause c);
// Throws run_error naming the value when it is none of to_string's.
stop_cause stop_cause_from_string(const std::string& s);
// The warning of a run that --time-limit stopped before its epochs were done.
std::string time_limit_warning(bool storage_only);

enum class run_status { complete, incomplete };
inline constexpr core::enum_table<run_status, 2> kRunStatusNames{
    {{run_status::complete, "complete"}, {run_status::incomplete, "incomplete"}}};
constexpr const auto& names_of(run_status) {
  return kRunStatusNames;
}
std::string to_string(run_status s); // "complete", "incomplete"

// A rank's row: failed (its own failure), stopped (before every step ran), complete, or
// missing (its results never came).
enum class rank_status { complete, stopped, failed, missing };
inline constexpr core::enum_table<rank_status, 4> kRankStatusNames{
    {{rank_status::complete, "complete"},
     {rank_status::stopped, "stopped"},
     {rank_status::failed, "failed"},
     {rank_status::missing, "missing"}}};
constexpr const auto& names_of(rank_status) {
  return kRankStatusNames;
}
std::string to_string(rank_status s);

// A count of something that went wrong, with the first instance: "3 read errors; first: ...".
struct run_problem {
  std::uint64_t count = 0;
  std::string what; // plural noun phrase: "read errors", "samples could not be read"
  std::string first;
};

// What the status is decided from, gathered by the run (storage-only or training).
struct status_inputs {
  std::string failure; // the run failed: why, as said where it came from ("" when it did not)
  stop_event stop;     // a stop request, if any
  // The stop's reason as said where it came from, named ("rank 1 (h): interrupted by signal
  // 2"); "" says it from `stop`.
  std::string stop_said;
  bool work_done = false; // every step or read ran: a stop that came later stopped nothing
  std::vector<run_problem> problems;      // in the order they outrank each other
  std::vector<std::string> missing_ranks; // names of ranks whose results never came
};

struct status_decision {
  run_status status = run_status::complete;
  std::string reason;                 // "" when complete
  bool stopped_at_time_limit = false; // --time-limit cut the work short (complete, warned)
};

// A failure first, then a stop that stopped something (the time limit is a planned end, not a
// failure: complete), then the first problem that counted, then ranks that never sent results
// (appended to any reason before).
status_decision decide_status(const status_inputs& in);

} // namespace dlsize::report
