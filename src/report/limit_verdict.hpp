#pragma once
// What held a run's AU below 1, named from the telemetry the run collected: the storage
// (readers waiting with their queues full, the device busy, a --max-read-rate cap reached),
// the client's CPU (a reader thread, which also runs the preprocessing, at about a full core,
// or the host saturated), or the harness (nothing at a limit: the prefetch window or the
// emulation itself). The thresholds are constants here and in docs/metrics.md; size takes the
// backend's capability only from storage-limited runs and never reads a client limit as the
// backend's ceiling.
#include <cmath>
#include <string>

#include <nlohmann/json.hpp>

#include "core/enum_names.hpp"
#include "report/bench_report.hpp"

namespace dlsize::report {

inline constexpr double kUnlimitedAu = 0.99;         // less than 1 % of the time waiting on data
inline constexpr double kReaderCpuBound = 0.90;      // a reader thread's share of one core
inline constexpr double kHostCpuBound = 0.95;        // the host's CPU, all cores
inline constexpr double kQueueFullBound = 0.50;      // share of reader time with the queue full
inline constexpr double kCompletionWaitBound = 0.50; // share of reader time waiting on reads
inline constexpr double kDeviceBusyBound = 0.90;     // share of the run the device had I/O
inline constexpr double kCapReachedBound = 0.95;     // read rate ÷ --max-read-rate

enum class limit_kind { nothing, storage, client_cpu, harness, unknown };
inline constexpr core::enum_table<limit_kind, 5> kLimitKindNames{
    {{limit_kind::nothing, "nothing"},
     {limit_kind::storage, "storage"},
     {limit_kind::client_cpu, "client_cpu"},
     {limit_kind::harness, "harness"},
     {limit_kind::unknown, "unknown"}}};
constexpr const auto& names_of(limit_kind) {
  return kLimitKindNames;
}

// "nothing", "storage", "client_cpu", "harness", "unknown".
const char* to_string(limit_kind k);
limit_kind parse_limit_kind(const std::string& text);

// The figures behind a verdict; NaN where the report does not have them.
struct limit_figures {
  double au = std::nan("");
  double busiest_reader_cpu = std::nan(""); // of one core
  double host_cpu = std::nan("");
  double queue_full_share = std::nan("");
  double completion_wait_share = std::nan("");
  double mean_in_flight = std::nan("");
  double queue_depth = std::nan("");
  double readers = std::nan("");
  double device_busy = std::nan("");
  double max_read_rate = std::nan(""); // bytes/s; NaN without a cap
  double read_bytes_per_s = std::nan("");
};

struct limit_verdict {
  limit_kind kind = limit_kind::unknown;
  std::string reason;     // the figures that decided, in words
  std::string advice;     // what to change to measure the backend rather than this limit
  bool synthetic = false; // the storage limit was --max-read-rate, a token bucket
  limit_figures figures;
};

// The figures of a bench report (summary, io.reader_time, timeseries device_busy).
limit_figures limit_figures_of(const bench_report& report);

// The verdict on those figures, by the rules in the order: nothing (AU ≥ 0.99), a reader at
// ≥ 90 % of a core, the cap reached (≥ 95 % of --max-read-rate), queues full ≥ half the time
// or readers waiting on completions ≥ half the time with the device busy ≥ 90 %, the host at
// ≥ 95 %, else the harness; unknown without AU.
limit_verdict decide_limit(const limit_figures& f);

// The `summary.limited_by` block (docs/report-schema.md).
limit_section limit_block(const limit_verdict& v);

// The block a bench report gets at the end of its run: limit_block of its own figures.
limit_section limited_by_block(const bench_report& report);

// One line for the terminal summary: "storage: readers waited ...".
std::string limit_line(const limit_section& block);

// The verdict a report carries, or one decided from its figures for reports made before the
// verdict existed.
limit_verdict limit_of(const bench_report& report);

} // namespace dlsize::report
