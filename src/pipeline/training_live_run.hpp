#pragma once
// The inside of a training_run, shared by the files that implement it (not for other modules):
// what a rank sets up before the run (state), and what one run() of it shares while it goes
// on (live_run): the accelerator threads and their syncs and checkpoints
// (training_live_run.cpp), the monitor and its progress line (training_progress.cpp), and the
// rank's result at the end (training_run_result.cpp).
#include <atomic>
#include <barrier>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "accel/accelerator.hpp"
#include "cluster/run_link.hpp"
#include "core/sysinfo.hpp"
#include "dataset/layout.hpp"
#include "pipeline/batch_board.hpp"
#include "pipeline/gpu_feed.hpp"
#include "pipeline/rank_result.hpp"
#include "pipeline/run_monitor.hpp"
#include "pipeline/sampler.hpp"
#include "pipeline/step_metrics.hpp"
#include "pipeline/training_consumer.hpp"
#include "pipeline/training_run.hpp"
#include "pipeline/training_source.hpp"
#include "telemetry/nvml.hpp"
#include "telemetry/sampler.hpp"

namespace dlsize::pipeline {

// What a rank's training_run holds from its construction to its end.
struct training_run::state {
  state(const training_options& o, cluster::communicator& c);
  training_options opt;
  cluster::communicator& comm;
  dataset::dataset_layout layout;
  sampler smp;
  std::uint64_t first = 0, local = 0; // this rank's accelerators
  io::file_set files;
  double stat_s = 0; // the files' stats before the run (run_files)
  std::string fallback;
  std::unique_ptr<io::engine> eng;
  sysinfo::mount_info mount;
  telemetry::host_provenance_facts provenance;             // taken before any read
  std::vector<std::unique_ptr<accel::accelerator>> accels; // this rank's
  std::unique_ptr<training_checkpointer> ckpt;             // with --checkpoint-every
};

// What each accelerator thread shares with the monitor while it runs.
struct alignas(64) accel_live {
  std::atomic<std::uint64_t> steps{0};
  std::atomic<std::uint64_t> samples{0};
  std::atomic<std::uint64_t> compute_ns{0};
};

// One run() of a rank: what its accelerator threads, its readers, the run link and the monitor
// share while the run goes on, and the pieces of the run that use it. Members are declared in
// the order they must be built (the link's callbacks use the board and the counters; the
// barrier's completion uses the link).
struct training_run::live_run {
  explicit live_run(state& s);
  live_run(const live_run&) = delete;
  live_run& operator=(const live_run&) = delete;

  // The barrier's completion: one sync of the job per phase.
  struct phase_done {
    live_run* run;
    void operator()() noexcept { run->on_phase(); }
  };

  state& m;
  const training_options& opt;
  const sampler& smp;
  const std::uint64_t local, first;
  const config::accelerator_preset& preset;
  batch_board board;
  training_source source;
  gpu_feed feed;
  training_consumer consumer;
  const telemetry::nvml gpus;
  telemetry::sampler tele;
  const telemetry::memory_figures memory_start;
  std::atomic<bool> stop_io{false}, halt{false};
  std::mutex reason_m;
  std::string fail_reason; // this rank's own
  stop_event stop;
  std::vector<accel_live> live;
  const std::unique_ptr<cluster::run_link> link;
  const std::uint64_t total_steps;
  // Steps are folded in as they end: a run's memory does not grow with its steps.
  std::vector<step_accumulator> records;
  // Syncs: a step ends, for every accelerator of the job, when the slowest one's compute ends
  // (its deadline, not when threads happen to wake), as an allreduce or a barrier would end.
  std::uint64_t t0 = 0; // the common start; set before any accelerator thread starts
  std::atomic<std::uint64_t> phase_max_end{0};
  std::uint64_t phase_end = 0;
  // A checkpoint after this phase: the step it follows (0: none), then the job's pause for it.
  std::atomic<std::uint64_t> ckpt_step{0};
  std::uint64_t ckpt_ns = 0;
  std::barrier<phase_done> step_barrier;
  const std::uint64_t comm_ns;

  std::unique_ptr<cluster::run_link> open_link();
  void halt_here();
  // This rank failed: it stops, and the job with it.
  void fail_here(const std::string& why);
  cluster::job_counters counters();
  // "step 41 of 200, 656 samples, 78.6 MB read; reader 0 has waited 2.1 s for a read of ..."
  std::string activity();
  void on_phase() noexcept;
  void checkpoint(std::uint64_t step);
  void accel_loop(std::uint64_t a);
  std::string progress_line(double el);
  run_monitor make_monitor(bool root);
  std::vector<std::thread> start_threads(run_monitor& monitor);
  io::engine_result read_all();
  void add_accelerators(rank_result& r, const std::vector<report::timeseries_point>& timeseries);
  void add_readers(rank_result& r, const io::engine_result& ran);
  rank_result result(const io::engine_result& ran, run_totals totals);
};

} // namespace dlsize::pipeline
