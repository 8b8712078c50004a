#include "pipeline/run_monitor.hpp"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <utility>

#include <fmt/format.h>

#include "core/clock.hpp"
#include "core/figures.hpp"
#include "core/progress.hpp"
#include "core/stop.hpp"

namespace dlsize::pipeline {
namespace {
// A gap this long between the monitor's passes (of 50 ms) is a pause of the process.
constexpr std::uint64_t kPausedNs = 1'000'000'000;
// A pause longer than this, or than --stall-timeout when that is shorter, is a warning.
constexpr double kPauseWarning_s = 10;

// A memory figure of one host: a count, or null where /proc/meminfo has no such line.
report::field<report::count_or_number> host_count(const report::field<std::uint64_t>& v) {
  if (!v.has_value())
    return report::field<report::count_or_number>::null();
  report::count_or_number c;
  c.count = *v;
  return c;
}

// The telemetry's part of a point.
void add_sample(report::timeseries_point& p, const telemetry::sampler::sample& s) {
  p.cpu_process = s.cpu_process;
  p.cpu_host = s.cpu_host;
  if (s.storage_read_bytes_per_s)
    p.storage_read_bytes_per_s = *s.storage_read_bytes_per_s;
  if (s.device_busy)
    p.device_busy = *s.device_busy;
  p.page_cache_bytes = host_count(s.memory.page_cache_bytes);
  p.available_bytes = host_count(s.memory.available_bytes);
  p.gpus = s.gpus;
}
} // namespace

run_monitor::run_monitor(telemetry::sampler& tele, monitor_options opt, counters_fn counters,
                         line_fn line, stop_fn stop)
    : m_tele(tele), m_opt(opt), m_counters(std::move(counters)), m_line(std::move(line)),
      m_stop(std::move(stop)) {}

run_monitor::~run_monitor() {
  {
    std::lock_guard lk(m_m);
    m_done.store(true);
  }
  m_wake.notify_all();
  if (m_thread.joinable())
    m_thread.join();
}

std::uint64_t run_monitor::start(std::uint64_t t0_ns) {
  m_cpu0 = telemetry::take_cpu_snapshot();
  m_nics0 = telemetry::read_nic_bytes();
  m_t0 = t0_ns ? t0_ns : now_ns();
  m_last_t = m_t0;
  m_thread = std::thread([this] { loop(); });
  return m_t0;
}

run_totals run_monitor::finish() {
  run_totals r;
  const std::uint64_t t1 = now_ns();
  r.cpu = telemetry::cpu_between(m_cpu0, telemetry::take_cpu_snapshot());
  r.cpu.budget_cores = telemetry::cpu_budget_cores();
  r.cpu.budget_share = telemetry::budget_share_of(r.cpu.process_utilization, r.cpu.budget_cores);
  r.storage_bytes = m_tele.storage_bytes();
  r.nics = telemetry::nic_bytes_between(m_nics0, telemetry::read_nic_bytes());
  r.wall_s = static_cast<double>(t1 - m_t0) * 1e-9;
  {
    std::lock_guard lk(m_m);
    m_done.store(true);
  }
  m_wake.notify_all();
  if (m_thread.joinable())
    m_thread.join();
  const auto interval = static_cast<std::uint64_t>(m_opt.sample_interval_s * 1e9);
  if (m_series.empty() || t1 - m_last_t >= interval / 2)
    take_point(t1, m_counters());
  r.timeseries = std::move(m_series);
  r.pauses = std::move(m_pauses);
  return r;
}

void run_monitor::note_pause(std::uint64_t ns, std::uint64_t t, const std::string& what) {
  const double limit_s = m_opt.stall_timeout_s > 0
                             ? std::min(m_opt.stall_timeout_s, kPauseWarning_s)
                             : kPauseWarning_s;
  const double s = static_cast<double>(ns) * 1e-9;
  if (s <= limit_s)
    return;
  m_pauses.push_back(fmt::format("paused {:.1f} s, {:.1f} s into the run (longer than {:g} s, the "
                                 "lesser of --stall-timeout and 10 s): {}; the run went on",
                                 s, static_cast<double>(t - ns - m_t0) * 1e-9, limit_s, what));
}

void run_monitor::report_status(std::uint64_t t, const run_counters& c) {
  if (!m_opt.status.fn || m_status_failed || t < m_next_status)
    return;
  m_next_status = t + static_cast<std::uint64_t>(m_opt.status.interval_s * 1e9);
  try {
    m_opt.status.fn(static_cast<double>(t - m_t0) * 1e-9, c);
  } catch (const std::exception& e) {
    // The run goes on; its final report has its own fallbacks.
    m_status_failed = true;
    std::fprintf(stderr, "dlsize: the periodic partial report could not be written: %s\n",
                 e.what());
  }
}

void run_monitor::take_point(std::uint64_t t, const run_counters& c) {
  const double dt = std::max(1e-9, static_cast<double>(t - m_last_t) * 1e-9);
  report::timeseries_point point;
  point.t_s = static_cast<double>(t - m_t0) * 1e-9;
  point.read_bytes_per_s = static_cast<double>(c.bytes - m_last.bytes) / dt;
  point.samples_per_s = static_cast<double>(c.samples - m_last.samples) / dt;
  if (m_opt.accelerators)
    point.accelerator_utilization =
        core::accelerator_utilization(static_cast<double>(c.compute_ns - m_last.compute_ns) * 1e-9,
                                      dt * static_cast<double>(m_opt.accelerators));
  add_sample(point, m_tele.point());
  m_series.push_back(std::move(point));
  m_last = c;
  m_last_t = t;
}

void run_monitor::loop() {
  progress bar(m_opt.progress);
  const auto interval = static_cast<std::uint64_t>(m_opt.sample_interval_s * 1e9);
  std::uint64_t next_sample = m_t0 + interval;
  run_counters seen;
  std::uint64_t progress_at = m_t0, last_pass = m_t0;
  const auto stall_ns = static_cast<std::uint64_t>(m_opt.stall_timeout_s * 1e9);
  // A read that waited this long with no progress (what stuck() says of it) is a pause.
  const auto pause_ns = static_cast<std::uint64_t>(
      (stall_ns ? std::min(m_opt.stall_timeout_s, kPauseWarning_s) : kPauseWarning_s) * 1e9);
  std::string waited_on;
  auto ask_stop = [&](const stop_event& why, std::uint64_t t) {
    m_stopped = true;
    m_stopped_at = t;
    m_stop(why);
  };
  m_next_status = m_t0 + static_cast<std::uint64_t>(m_opt.status.interval_s * 1e9);
  while (!m_done.load()) {
    {
      std::unique_lock lk(m_m);
      if (m_wake.wait_for(lk, std::chrono::milliseconds(50), [&] { return m_done.load(); }))
        break;
    }
    const std::uint64_t t = now_ns();
    // This thread did not run for a while (the process was stopped, the host stalled): no
    // progress was watched meanwhile, so none is missed; reads that completed meanwhile wait in
    // their queues, not in the storage.
    if (t - last_pass > kPausedNs) { // the run link warns of a rank's own pause
      progress_at = t;
      waited_on.clear();
    }
    last_pass = t;
    const double el = static_cast<double>(t - m_t0) * 1e-9;
    if (!m_stopped && stop_requested())
      ask_stop({stop_cause::signal, stop_signal(), ""}, t);
    if (!m_stopped && m_opt.time_limit_s > 0 && el >= m_opt.time_limit_s)
      ask_stop({stop_cause::time_limit, 0, ""}, t);
    const run_counters c = m_counters();
    if (c.bytes != seen.bytes || c.samples != seen.samples || c.compute_ns != seen.compute_ns) {
      if (!waited_on.empty()) // the storage answered again after a pause
        note_pause(t - progress_at, t, "no byte moved, " + waited_on);
      waited_on.clear();
      progress_at = t;
    } else if (waited_on.empty() && m_opt.stuck && t - progress_at >= pause_ns) {
      waited_on = m_opt.stuck(pause_ns);
    }
    seen = c;
    if (!m_stopped && stall_ns && m_opt.stuck && t - progress_at >= stall_ns) {
      const std::string what = m_opt.stuck(stall_ns);
      if (!what.empty())
        ask_stop(
            {stop_cause::stall, 0,
             fmt::format("no byte read and no step for {:.1f} s (--stall-timeout {:g}s); {}",
                         static_cast<double>(t - progress_at) * 1e-9, m_opt.stall_timeout_s, what)},
            t);
    }
    if (m_stopped && m_opt.hard_stop &&
        static_cast<double>(t - m_stopped_at) * 1e-9 >= m_opt.hard_stop_after_s)
      m_opt.hard_stop->store(true);
    if (t >= next_sample) {
      take_point(t, c);
      next_sample += interval;
    }
    report_status(t, c);
    bar.update(m_line(el, c));
  }
  bar.finish();
}

} // namespace dlsize::pipeline
