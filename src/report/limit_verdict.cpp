#include "report/limit_verdict.hpp"

#include <fmt/format.h>

#include "report/bench_report.hpp"

namespace dlsize::report {
namespace {

field<double> num(double v) {
  return field<double>::of(std::isfinite(v) ? std::optional<double>(v) : std::nullopt);
}

double mean_device_busy(const bench_report& r) {
  double sum = 0;
  int n = 0;
  for (const auto& p : r.timeseries.value_or(std::vector<timeseries_point>{}))
    if (p.device_busy.has_value()) {
      // A multi-host timeseries adds host figures up: a share stays within 1.
      sum += std::min(1.0, *p.device_busy);
      ++n;
    }
  return n ? sum / n : std::nan("");
}

bool at_least(double v, double bound) {
  return std::isfinite(v) && v >= bound;
}

std::string pct(double v) {
  return fmt::format("{:.0f} %", 100 * v);
}

} // namespace

const char* to_string(limit_kind k) {
  return core::name_of(k).data();
}

limit_kind parse_limit_kind(const std::string& t) {
  return core::find_enum<limit_kind>(t).value_or(limit_kind::unknown);
}

limit_figures limit_figures_of(const bench_report& r) {
  using num = bench_report;
  limit_figures f;
  if (r.summary) {
    // The waits on data decide, so a modelled allreduce's time is the accelerator's own
    // (storage_au; absent in reports older than the allreduce model, where it equals AU).
    f.au = r.summary->storage_au.has_value() ? num::number(r.summary->storage_au)
                                             : num::number(r.summary->accelerator_utilization);
    f.read_bytes_per_s = num::number(r.summary->read_bytes_per_s);
    if (r.summary->cpu_utilization)
      f.host_cpu = num::number(r.summary->cpu_utilization->host);
  }
  if (r.io) {
    f.queue_depth = num::number(r.io->queue_depth);
    f.readers = num::number(r.io->readers);
    f.max_read_rate = num::number(r.io->max_read_rate);
    if (const auto& t = r.io->reader_time; t.has_value()) {
      f.busiest_reader_cpu = num::number(t->busiest_cpu_share);
      f.queue_full_share = num::number(t->queue_full_share);
      f.completion_wait_share = num::number(t->completion_wait_share);
      f.mean_in_flight = num::number(t->mean_in_flight);
    }
  }
  f.device_busy = mean_device_busy(r);
  return f;
}

limit_verdict decide_limit(const limit_figures& f) {
  limit_verdict v;
  v.figures = f;
  const std::string more_clients = "add --readers (each takes up to a core) or spread the "
                                   "accelerators over more clients";
  if (!std::isfinite(f.au)) {
    v.reason = "AU was not measured";
    return v;
  }
  if (f.au >= kUnlimitedAu) {
    v.kind = limit_kind::nothing;
    v.reason =
        fmt::format("AU {:.3f}: the accelerators waited on data less than 1 % of the time", f.au);
    return v;
  }
  if (at_least(f.busiest_reader_cpu, kReaderCpuBound)) {
    v.kind = limit_kind::client_cpu;
    v.reason = fmt::format("a reader thread ran at {} of a core (bound {}), its reads and "
                           "preprocessing together",
                           pct(f.busiest_reader_cpu), pct(kReaderCpuBound));
    v.advice = more_clients;
    return v;
  }
  const double over_cap = f.read_bytes_per_s / f.max_read_rate;
  if (at_least(over_cap, kCapReachedBound)) {
    v.kind = limit_kind::storage;
    v.synthetic = true;
    v.reason = fmt::format("reads ran at {} of the --max-read-rate cap (bound {}): the token "
                           "bucket standing in for a slower storage",
                           pct(over_cap), pct(kCapReachedBound));
    v.advice = "the cap is the limit by design; remove it to measure the storage itself";
    return v;
  }
  const bool queue_full = at_least(f.queue_full_share, kQueueFullBound);
  const bool waiting = at_least(f.completion_wait_share, kCompletionWaitBound) &&
                       at_least(f.device_busy, kDeviceBusyBound);
  if (queue_full || waiting) {
    v.kind = limit_kind::storage;
    v.reason = queue_full
                   ? fmt::format("readers waited with all {:.0f} requests in flight {} of their "
                                 "time (bound {}; mean in flight {:.1f})",
                                 f.queue_depth, pct(f.queue_full_share), pct(kQueueFullBound),
                                 f.mean_in_flight)
                   : fmt::format("readers waited on completions {} of their time with the device "
                                 "busy {} (bounds {}, {})",
                                 pct(f.completion_wait_share), pct(f.device_busy),
                                 pct(kCompletionWaitBound), pct(kDeviceBusyBound));
    v.advice = queue_full ? "a deeper --queue-depth may find more; otherwise this is the backend"
                          : "this is the backend";
    return v;
  }
  if (at_least(f.host_cpu, kHostCpuBound)) {
    v.kind = limit_kind::client_cpu;
    v.reason = fmt::format("the host's CPU was {} busy (bound {}), the readers not waiting on "
                           "the storage",
                           pct(f.host_cpu), pct(kHostCpuBound));
    v.advice = "run on an idle client, or spread the accelerators over more clients";
    return v;
  }
  v.kind = limit_kind::harness;
  v.reason = fmt::format("nothing at a limit: busiest reader {} of a core, queue full {} of the "
                         "time, host CPU {}",
                         std::isfinite(f.busiest_reader_cpu) ? pct(f.busiest_reader_cpu) : "?",
                         std::isfinite(f.queue_full_share) ? pct(f.queue_full_share) : "?",
                         std::isfinite(f.host_cpu) ? pct(f.host_cpu) : "?");
  v.advice = "raise --prefetch or --queue-depth; the emulation itself may be late";
  return v;
}

limit_section limit_block(const limit_verdict& v) {
  const auto& f = v.figures;
  limit_section b;
  b.verdict = std::string(to_string(v.kind));
  b.synthetic = v.synthetic;
  b.reason = v.reason;
  b.advice = field<std::string>::of(v.advice.empty() ? std::nullopt
                                                     : std::optional<std::string>(v.advice));
  limit_figures_section& n = b.figures.emplace();
  n.accelerator_utilization = num(f.au);
  n.busiest_reader_cpu_share = num(f.busiest_reader_cpu);
  n.host_cpu_utilization = num(f.host_cpu);
  n.queue_full_share = num(f.queue_full_share);
  n.completion_wait_share = num(f.completion_wait_share);
  n.mean_in_flight = num(f.mean_in_flight);
  n.queue_depth = num(f.queue_depth);
  n.readers = num(f.readers);
  n.device_busy = num(f.device_busy);
  n.max_read_rate = num(f.max_read_rate);
  n.read_bytes_per_s = num(f.read_bytes_per_s);
  return b;
}

limit_section limited_by_block(const bench_report& report) {
  return limit_block(decide_limit(limit_figures_of(report)));
}

std::string limit_line(const limit_section& b) {
  return fmt::format("  limited by  {}: {}{}\n", b.verdict.value_or("unknown"),
                     b.reason.value_or(""), b.advice.has_value() ? " (" + *b.advice + ")" : "");
}

limit_verdict limit_of(const bench_report& r) {
  limit_verdict v = decide_limit(limit_figures_of(r));
  if (r.summary && r.summary->limited_by.has_value()) {
    const limit_section& b = *r.summary->limited_by;
    v.kind = parse_limit_kind(b.verdict.value_or(""));
    v.reason = b.reason.value_or(v.reason);
    v.synthetic = b.synthetic.value_or(false);
    v.advice = b.advice.value_or("");
  }
  return v;
}

} // namespace dlsize::report
