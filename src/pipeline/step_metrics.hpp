#pragma once
// Per-step records and the figures made from them: accelerator utilization (AU), throughput,
// data-wait time. Pure arithmetic over records, so it is tested on synthetic numbers.
//
// AU (MLPerf Storage): compute time / wall time, the first step excluded. For one accelerator
// the measured window runs from the end of its first step to the end of its last; the
// overall AU is the sum of compute over the sum of windows.
#include <cstdint>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/histogram.hpp"
#include "report/bench_report.hpp"

namespace dlsize::pipeline {

// Nanoseconds as seconds.
inline double sec(std::uint64_t ns) {
  return static_cast<double>(ns) * 1e-9;
}

struct step_record {
  std::uint64_t step = 0; // run step (epoch × steps_per_epoch + step in epoch)
  std::uint64_t epoch = 0;
  std::uint64_t wait_ns = 0;    // waiting for the batch after the previous step ended
  std::uint64_t compute_ns = 0; // the accelerator's step
  std::uint64_t sync_ns = 0;    // the per-step barrier (--sync-steps), 0 without
  std::uint64_t end_ns = 0;     // monotonic time the step (barrier included) ended
  std::uint64_t samples = 0;
  std::uint64_t bytes = 0;   // bytes read for this batch
  std::uint64_t comm_ns = 0; // the modelled allreduce's exposed time held after the barrier
};

struct accelerator_figures {
  std::uint64_t steps = 0;          // all steps run
  std::uint64_t measured_steps = 0; // steps after the first
  double compute_s = 0;             // of the measured steps
  double window_s = 0;              // end of step 0 to end of the last step
  double utilization = 0;           // compute_s / window_s; 0 when nothing was measured
  bool measured = false;            // at least two steps
  double data_wait_s = 0;           // measured steps
  double sync_wait_s = 0;
  double comm_s = 0;            // measured steps' exposed allreduce time (a running sum)
  double storage_au = 0;        // (compute_s + comm_s) / window_s
  double first_step_wait_s = 0; // the pipeline's fill time
  std::uint64_t samples = 0;    // measured steps
  std::uint64_t bytes = 0;
  std::uint64_t total_samples = 0; // all steps, the first included
  std::uint64_t total_bytes = 0;
  double samples_per_s = 0; // samples / window_s
  histogram data_wait;      // per measured step, ns
};

// Figures of one accelerator from its records, in step order.
accelerator_figures figures_of(const std::vector<step_record>& steps);
// The figures as JSON (the data-wait histogram included) and back, to carry them between ranks
// (step_metrics_json.cpp).
nlohmann::json figures_json(const accelerator_figures& f);
accelerator_figures figures_from_json(const nlohmann::json& j);

struct overall_figures {
  double utilization = 0; // Σ compute / Σ window over the accelerators measured
  double min_utilization = 0;
  double samples_per_s = 0; // Σ per-accelerator samples/s
  double compute_s = 0, window_s = 0, data_wait_s = 0, sync_wait_s = 0, comm_s = 0;
  double storage_au = 0;    // (Σ compute + Σ comm) / Σ window: the verdict's AU
  double comm_fraction = 0; // Σ comm / Σ window
  std::uint64_t measured_accelerators = 0;
  histogram data_wait;
};

overall_figures overall_of(const std::vector<accelerator_figures>& per_accelerator);

// The sums behind one epoch's figures, from any set of accelerators; partials of different
// ranks merge by adding (and by the earliest begin and latest end, on a common time base).
struct epoch_partial {
  std::uint64_t steps = 0, samples = 0, bytes = 0, compute_ns = 0, wait_ns = 0;
  std::uint64_t measured_samples = 0, measured_bytes = 0;
  std::uint64_t begin_ns = UINT64_MAX, end_ns = 0; // window of the measured steps
  std::uint64_t dlio_compute_ns = 0, dlio_window_ns = 0;
  void merge(const epoch_partial& o);
  nlohmann::json to_json() const;
  static epoch_partial from_json(const nlohmann::json& j);
};

// Per-epoch rows are kept for the first kEpochRowsCap epochs; every later epoch folds into one
// row more ("the rest"), so memory and the report stay bounded at any --epochs (88 bytes a row
// per accelerator and per rank, sent to rank 0).
inline constexpr std::uint64_t kEpochRowsCap = 1000;
inline std::uint64_t epoch_rows(std::uint64_t epochs) {
  return epochs > kEpochRowsCap ? kEpochRowsCap + 1 : epochs;
}
inline std::uint64_t epoch_row(std::uint64_t epoch) {
  return epoch > kEpochRowsCap ? kEpochRowsCap : epoch;
}

std::vector<epoch_partial>
epoch_partials(const std::vector<std::vector<step_record>>& per_accelerator, std::uint64_t epochs);

// One accelerator's steps folded in as they end, in step order: running sums, the data-wait
// histogram and one partial per epoch, so that a run's memory does not grow with its steps
// (a record is 72 bytes; a million steps of 64 accelerators would hold 4.6 GB). figures_of and
// epoch_partials above fold their records through it.
class step_accumulator {
public:
  explicit step_accumulator(std::uint64_t epochs) : m_epochs(epochs) {}
  void add(const step_record& s);
  std::uint64_t steps() const { return m_figures.steps; }
  // The figures of the steps so far (utilization, rates and the window made final).
  accelerator_figures figures() const;
  // This accelerator's partial per epoch (epochs beyond the run's count are not kept).
  const std::vector<epoch_partial>& epochs() const { return m_epoch_partials; }

private:
  std::uint64_t m_epochs;
  accelerator_figures m_figures;
  std::uint64_t m_compute = 0, m_wait = 0, m_sync = 0, m_comm = 0;
  std::uint64_t m_first_end = 0, m_last_end = 0, m_last_epoch = 0;
  std::vector<epoch_partial> m_epoch_partials;
};
// The per-epoch figures (below) from merged partials of `accelerators` accelerators, a row for
// each epoch up to the last that ran (epochs_total: how many started); with epochs past
// kEpochRowsCap the last row is the rest ("epoch" kEpochRowsCap, "last_epoch", "epochs_in_row").
std::vector<report::epoch_row> epoch_figures(const std::vector<epoch_partial>& partials,
                                             std::uint64_t accelerators, std::uint64_t t0_ns,
                                             std::uint64_t epochs_total = 0);

// Per-epoch figures over all accelerators: steps, samples, bytes, wall (from the end of the
// step before the epoch's first measured step to the epoch's last step end), AU (compute /
// (accelerators × wall), run step 0 excluded), samples/s, and DLIO's per-epoch AU (each
// accelerator's first step of every epoch excluded, Σ compute / Σ windows). t0_ns anchors
// start_s/end_s.
std::vector<report::epoch_row>
epoch_figures(const std::vector<std::vector<step_record>>& per_accelerator, std::uint64_t epochs,
              std::uint64_t t0_ns);

// The mean over epochs of DLIO's per-epoch AU (epochs without a measured window skipped);
// null when no epoch was measured. DLIO and MLPerf Storage's reports pass on this figure.
std::optional<double> epoch_mean_au(const std::vector<report::epoch_row>& epochs);

} // namespace dlsize::pipeline
