#pragma once
// SIGINT/SIGTERM handling: the first signal asks long phases to stop at the next safe point
// (they then write what they measured); a second one ends the process at once. And why a run
// stops before its work is done, as a value.
#include <string>

#include "core/enum_names.hpp"

namespace dlsize {

// Why a run was asked to stop before its work was done. A signal and a stall abandon the reads
// in flight; the time limit lets them finish. report/run_status.hpp says it in the report's
// words.
enum class stop_cause { none, signal, time_limit, stall };
inline constexpr core::enum_table<stop_cause, 4> kStopCauseNames{
    {{stop_cause::none, "none"},
     {stop_cause::signal, "signal"},
     {stop_cause::time_limit, "time_limit"},
     {stop_cause::stall, "stall"}}};
constexpr const auto& names_of(stop_cause) {
  return kStopCauseNames;
}

struct stop_event {
  stop_cause cause = stop_cause::none;
  int signal = 0;     // cause signal: which one
  std::string detail; // cause stall: what is stuck and for how long
};

void install_stop_handlers();
bool stop_requested();
void request_stop();
int stop_signal(); // the signal that asked, or 0

} // namespace dlsize
