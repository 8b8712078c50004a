// A live training run's monitor: the telemetry, the stop rules and the progress line of the
// job's counters.
#include <algorithm>

#include <fmt/format.h>

#include "core/figures.hpp"
#include "core/units.hpp"
#include "pipeline/training_live_run.hpp"
#include "report/run_status.hpp"

namespace dlsize::pipeline {

std::string training_run::live_run::progress_line(double el) {
  const cluster::job_counters c = link->totals(); // the job's, on rank 0
  // A running view, not capped (compute is accounted at step end); the report's AU is.
  const double au = el > 0 ? core::share(static_cast<double>(c.compute_ns) * 1e-9,
                                         el * static_cast<double>(opt.accelerators))
                           : 0;
  const double frac = static_cast<double>(c.steps) / static_cast<double>(total_steps);
  // Streamed shards may count other steps in each epoch: the epoch's own.
  const std::uint64_t epoch = std::min(opt.epochs - 1, smp.epoch_of(c.steps));
  const std::uint64_t first_step = smp.first_step(epoch);
  return fmt::format(
      "train: epoch {}/{} step {}/{}, {:.0f} samples/s, {}, AU {:.1f} %, ETA {:.0f} s", epoch + 1,
      opt.epochs, c.steps - first_step, smp.first_step(epoch + 1) - first_step,
      el > 0 ? static_cast<double>(c.samples) / el : 0,
      units::format_rate_both(el > 0 ? static_cast<double>(c.bytes) / el : 0), 100 * au,
      frac > 0 ? el * (1 - frac) / frac : 0);
}

run_monitor training_run::live_run::make_monitor(bool root) {
  return run_monitor(
      tele,
      {opt.sample_interval_s, root ? opt.time_limit_s : 0, opt.progress && root, local,
       opt.stall_timeout_s, [this](std::uint64_t age) { return m.eng->stuck_read(age); }, nullptr,
       0.5, root ? opt.status : status_hook{}},
      [this] {
        const cluster::job_counters c = counters();
        return run_counters{c.bytes, c.samples, c.compute_ns};
      },
      [this](double el, const run_counters&) { return progress_line(el); },
      [this](const stop_event& why) {
        {
          std::lock_guard lk(reason_m);
          if (stop.cause == stop_cause::none)
            stop = why;
        }
        link->stop(report::stop_reason_text(why));
      });
}

} // namespace dlsize::pipeline
