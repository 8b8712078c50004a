#pragma once
// The goodput model: the share of a training job's wall time that checkpoints, the work lost to
// failures and the restarts after them cost, and the checkpoint interval that keeps that share
// smallest (docs/metrics.md, Goodput). Failures are exponential (memoryless) with a system mean
// time to failure M = MTTF ÷ N; a failure may strike anywhere, a checkpoint or a restart
// included, and the job resumes from the last durable checkpoint. The interval is Young's
// first-order √(2δM) and Daly's higher-order estimate (Daly 2006, "A higher order estimate of
// the optimum checkpoint interval for restart dumps"), and the loss is Daly's complete cost
// function, exact under these assumptions: the discrete-event simulation in the unit tests
// checks it.
#include <functional>
#include <optional>

#include "core/defaults.hpp"

namespace dlsize::analysis {

// The MTTF per accelerator assumed when none is given, with where it comes from.
inline constexpr double kDefaultMttfS = core::defaults::mttf_s;
inline constexpr const char* kDefaultMttfSource = core::defaults::mttf_source;

// What a restart costs besides reading the checkpoint back (relaunching the job, initialising
// NCCL, loading the code): an input, not measured by dlsize.
inline constexpr double kDefaultRestartOverheadS = 300;
inline constexpr const char* kDefaultRestartOverheadSource =
    "5 min: dlsize's assumption for relaunching the job and initialising NCCL, not a "
    "measurement (--restart-overhead)";

// What one checkpoint and one restart cost, in seconds of wall time.
struct checkpoint_costs {
  // δ: training stops this long per checkpoint. Synchronous: the write to storage;
  // asynchronous: the copy to host memory.
  double pause_s = 0;
  // Asynchronous only: the write to storage that follows the pause, in the background; the
  // checkpoint is durable once it ends, and it must end before the next checkpoint. 0: the
  // checkpoint is durable when the pause ends (synchronous).
  double drain_s = 0;
  // R: from a failure to training again: the restore read plus the restart overhead.
  double restart_s = 0;
};

// Fractions of the wall time; they sum to 1.
struct goodput_split {
  double useful = 0;      // goodput: training whose result a later checkpoint keeps
  double checkpoints = 0; // the pauses of the checkpoints that became durable
  double rework = 0;      // time lost to failures: work and pauses after the last durable state
  double restarts = 0;    // restore and restart overhead, restarts that failed included
  double loss() const { return checkpoints + rework + restarts; }
};

// The model at one system MTTF: the intervals and, where checkpoints keep up, the split.
struct goodput_estimate {
  double system_mttf_s = 0;
  double young_s = 0;
  std::optional<double> daly_s;     // none: checkpoints cannot keep up (δ ≥ 2M)
  std::optional<double> interval_s; // Daly's, or the drain where that is longer (async)
  bool drain_bound = false;         // the interval is the drain's, not Daly's
  std::optional<goodput_split> split;
  bool keeps_up() const { return daly_s.has_value(); }
  // The share of the wall time lost: 1 when checkpoints cannot keep up.
  double loss() const { return split ? split->loss() : 1.0; }
};

// M = MTTF per accelerator ÷ accelerators.
double system_mttf(double mttf_s, double accelerators);

// Young (1974): √(2δM).
double young_interval(double pause_s, double system_mttf_s);

// Daly (2006): √(2δM)·[1 + ⅓·√(δ/2M) + (1/9)·(δ/2M)] − δ for δ < 2M; none for δ ≥ 2M,
// where checkpoints cannot keep up (Daly's own answer there is τ = M).
std::optional<double> daly_interval(double pause_s, double system_mttf_s);

// The split at compute interval τ between checkpoints: with P = τ + δ, D the drain and the
// expected cycle (a restart, then a run to the next failure) C = M·e^{R/M}, the checkpoints
// that become durable per cycle are n = e^{−D/M} ÷ (e^{P/M} − 1), and useful = τn ÷ C,
// checkpoints = δn ÷ C, restarts = 1 − e^{−R/M}, rework = (M − Pn) ÷ C. With D = 0 the useful
// share is Daly's τ ÷ (M·e^{R/M}·(e^{(τ+δ)/M} − 1)).
goodput_split goodput_at(double interval_s, const checkpoint_costs& c, double system_mttf_s);

// The estimate at Daly's interval (raised to the drain when asynchronous). Throws
// std::invalid_argument when the pause or the system MTTF is not above 0.
goodput_estimate estimate_goodput(const checkpoint_costs& c, double system_mttf_s);

// The smallest write bandwidth (bytes/s) whose costs keep the loss at or under max_loss:
// costs_at gives the costs at a bandwidth, the loss falling as it grows. Solved by bisection on
// the bandwidth's logarithm to a relative 1e-9; none when even 10^18 bytes/s does not reach
// max_loss (the restarts alone lose more).
std::optional<double>
bandwidth_for_loss(const std::function<checkpoint_costs(double bytes_per_s)>& costs_at,
                   double system_mttf_s, double max_loss);

} // namespace dlsize::analysis
