#pragma once
// The monitor thread of a run: every 50 ms it checks for SIGINT/SIGTERM, the time limit and a
// stall (and asks the run to stop once, with the reason) and redraws the progress line; every
// sample interval it appends a telemetry point (rates over the interval) to the timeseries.
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "core/stop.hpp"
#include "report/bench_report.hpp"
#include "telemetry/nic_counters.hpp"
#include "telemetry/sampler.hpp"

namespace dlsize::pipeline {

// Running totals a run exposes to its monitor (read from another thread, so atomics inside).
struct run_counters {
  std::uint64_t bytes = 0;
  std::uint64_t samples = 0;
  std::uint64_t compute_ns = 0; // accelerators' compute; 0 for storage-only runs
};

// What the run's clock says at its end.
struct run_totals {
  double wall_s = 0;
  telemetry::cpu_usage cpu;               // this process and the host over the run
  std::uint64_t storage_bytes = 0;        // what the storage counter says the storage delivered
  std::vector<telemetry::nic_bytes> nics; // what the host's NICs carried over the run
  std::vector<report::timeseries_point> timeseries;
  // Pauses of the storage the run lived through, for the report's warnings: no byte moved while
  // a read waited, longer than the lesser of --stall-timeout and 10 s (a rank's own pause is the
  // run link's to warn of).
  std::vector<std::string> pauses;
};

// A long run's periodic status: fn gets the elapsed time and the totals every interval_s (the
// partial report of --status-interval). Exceptions from fn are reported once, not propagated.
struct status_hook {
  double interval_s = 30;
  std::function<void(double elapsed_s, const run_counters&)> fn; // empty: none
};

struct monitor_options {
  double sample_interval_s = 1.0;
  double time_limit_s = 0; // 0: none
  bool progress = true;
  std::uint64_t accelerators = 0; // > 0: points carry accelerator_utilization
  // --stall-timeout: no counter moved for this long while a read has been in flight as long
  // (stuck() names it) stops the run; 0: never. A step or a rate-limit wait with no read in
  // flight is not a stall.
  double stall_timeout_s = 0;
  std::function<std::string(std::uint64_t min_age_ns)> stuck;
  // Set this flag when the run has not ended hard_stop_after_s after the stop was asked (a
  // stop that lets the jobs in flight finish must not wait for reads that never do).
  std::atomic<bool>* hard_stop = nullptr;
  double hard_stop_after_s = 0.5;
  // Rewrites of the partial report (--status-interval), rank 0 only.
  status_hook status;
};

class run_monitor {
public:
  using counters_fn = std::function<run_counters()>;
  using line_fn = std::function<std::string(double elapsed_s, const run_counters&)>;
  // Called once from the monitor thread, with a signal's, the time limit's or a stall's stop.
  using stop_fn = std::function<void(const stop_event& why)>;

  run_monitor(telemetry::sampler& tele, monitor_options opt, counters_fn counters, line_fn line,
              stop_fn stop);
  ~run_monitor();
  run_monitor(const run_monitor&) = delete;
  run_monitor& operator=(const run_monitor&) = delete;

  // Starts the run's clock (at t0_ns, or now when 0) and the thread; returns the start time
  // (monotonic ns).
  std::uint64_t start(std::uint64_t t0_ns = 0);
  // Stops the clock and the thread, ends the progress line and returns the totals. A run
  // shorter than one interval, or a tail of half an interval or more, gets a closing point, so
  // the timeseries covers the whole run.
  run_totals finish();

private:
  void loop();
  // Appends the telemetry point for the interval from the previous point to t.
  void take_point(std::uint64_t t, const run_counters& c);
  void report_status(std::uint64_t t, const run_counters& c);
  // Notes a pause of `ns` that ended at t when it is longer than the warning's threshold.
  void note_pause(std::uint64_t ns, std::uint64_t t, const std::string& what);
  telemetry::sampler& m_tele;
  monitor_options m_opt;
  counters_fn m_counters;
  line_fn m_line;
  stop_fn m_stop;
  std::uint64_t m_t0 = 0;
  telemetry::cpu_snapshot m_cpu0;
  std::vector<telemetry::nic_bytes> m_nics0;
  std::atomic<bool> m_done{false};
  std::mutex m_m; // with m_wake: finish() ends the 50 ms wait at once
  std::condition_variable m_wake;
  bool m_stopped = false;
  std::uint64_t m_stopped_at = 0;
  std::uint64_t m_next_status = 0;
  bool m_status_failed = false;
  std::vector<report::timeseries_point> m_series;
  std::vector<std::string> m_pauses; // the monitor thread's until finish()
  run_counters m_last;               // at the previous point
  std::uint64_t m_last_t = 0;
  std::thread m_thread;
};

} // namespace dlsize::pipeline
