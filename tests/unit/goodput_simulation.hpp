#pragma once
// A discrete-event simulation of a training job under exponential failures, for checking the
// goodput model's closed form (src/analysis/goodput.hpp) by an independent route: it plays the
// job event by event (compute τ, pause δ, the drain of an asynchronous checkpoint, a failure
// that loses everything after the last durable checkpoint, a restart of R that may fail too)
// and adds up where the wall time went.
#include <cstdint>
#include <random>

#include "analysis/goodput.hpp"

namespace dlsize::test {

// Where the simulated wall time went, in seconds.
struct simulated_job {
  double wall = 0, useful = 0, checkpoints = 0, restarts = 0;
  std::uint64_t failures = 0;
  double share(double part) const { return part / wall; }
  double rework() const { return wall - useful - checkpoints - restarts; }
};

// Runs the job until `failures` failures have struck (during restarts too), from a fixed seed.
// Checkpoints follow every `interval_s` of compute; a checkpoint is durable drain_s after its
// pause ends (at once for a synchronous one), and the drain is shorter than the interval, so at
// most one checkpoint is pending at a time.
inline simulated_job simulate_job(double interval_s, const analysis::checkpoint_costs& c,
                                  double system_mttf_s, std::uint64_t failures,
                                  std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::exponential_distribution<double> next_failure(1.0 / system_mttf_s);
  simulated_job job;
  double t = 0;
  while (job.failures < failures) {
    // Running from a durable checkpoint until the next failure.
    const double fail_at = t + next_failure(rng);
    bool pending = false;
    double pending_at = 0;
    for (;;) {
      const double period_end = t + interval_s + c.pause_s;
      if (pending && pending_at <= fail_at) {
        job.useful += interval_s;
        job.checkpoints += c.pause_s;
        pending = false;
      }
      if (fail_at < period_end) {
        t = fail_at;
        break;
      }
      t = period_end;
      pending = true;
      pending_at = t + c.drain_s;
    }
    ++job.failures;
    // The restart, which a failure starts over.
    for (;;) {
      const double restart_fail = t + next_failure(rng);
      if (restart_fail >= t + c.restart_s) {
        job.restarts += c.restart_s;
        t += c.restart_s;
        break;
      }
      job.restarts += restart_fail - t;
      t = restart_fail;
      ++job.failures;
    }
  }
  job.wall = t;
  return job;
}

} // namespace dlsize::test
