#pragma once
// Checkpoints inside a training run (bench --checkpoint-every): after every N-th step each rank
// pauses all its accelerators while it writes its share of the workload's checkpoint
// (config::checkpoint_shares) through the checkpoint writer (write_rank_shards), and every rank
// waits for the slowest writer, as synchronous checkpointing does. The shards of a checkpoint
// are removed once the job has written them: the run measures the pause, not what is kept.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "config/checkpoint_interval.hpp"
#include "config/workload.hpp"
#include "dataset/checkpoint_block.hpp"
#include "dataset/checkpoint_folder.hpp"
#include "pipeline/checkpoint_phase.hpp"
#include "pipeline/checkpoint_s3.hpp"
#include "report/bench_report.hpp"

namespace dlsize::pipeline {

// bench --checkpoint-every optimal: the first checkpoint follows the first step, and its pause
// (the job's, from the slowest writer) sets the interval by the goodput model
// (analysis/goodput.hpp) at the job's system MTTF.
struct optimal_interval {
  double mttf_s = 0; // of one accelerator
  std::string mttf_source;
  std::uint64_t accelerators = 1; // the job's
};

struct training_checkpoint_options {
  config::checkpoint_interval every; // neither steps nor seconds: no checkpoints, unless optimal
  std::filesystem::path dir;         // --checkpoint-dir: new, empty or missing
  double scale = 1;                  // --checkpoint-scale: every rank's share × scale
  std::optional<s3_checkpoint> s3;   // --checkpoint-dir s3://BUCKET/PREFIX: objects
  std::optional<optimal_interval> optimal;
  bool active() const { return every.steps > 0 || every.seconds > 0 || optimal; }
};

// The interval the goodput model picks after a first checkpoint that paused the job
// pause_s: Daly's (2006) at M = MTTF ÷ accelerators, in steps of step_s (rounded up, at least 1);
// where the checkpoint takes 2M or more, checkpoints cannot keep up and the interval is M (Daly's
// answer for that case). The report's interval_choice, with the reason in words.
report::checkpoint_interval_choice choose_interval(const optimal_interval& o, double pause_s,
                                                   double step_s);

// The steps between checkpoints: a duration becomes the steps the accelerators compute in it
// at step_s per step (at least 1), so that every rank checkpoints after the same steps without
// a vote.
std::uint64_t checkpoint_every_steps(const config::checkpoint_interval& every, double step_s);

// How the accelerators' time splits: AU, the share lost to checkpoints (their time over the
// wall time), the rest (reading and syncs), and AU over the time outside checkpoints.
struct checkpoint_au_split {
  double lost_to_checkpoints = 0;
  double lost_other = 0;
  double excluding_checkpoints = 0;
};
checkpoint_au_split split_checkpoint_au(double au, double checkpoint_s, double wall_s);

// One rank's checkpoints of one training run. Rank 0 claims --checkpoint-dir when it is made
// (refusing a foreign or non-empty folder, or too little room for one checkpoint) and removes
// what it made when it is destroyed.
class training_checkpointer {
public:
  // Throws usage_error for a profile without a checkpoint block (naming those that have one),
  // a scale outside (0, 1], ranks that do not divide by the layout, or a folder it refuses.
  training_checkpointer(const training_checkpoint_options& o, const config::workload_profile& w,
                        unsigned rank, unsigned ranks, double step_s, const phase_io& io,
                        std::uint64_t run_id);
  ~training_checkpointer();
  training_checkpointer(const training_checkpointer&) = delete;
  training_checkpointer& operator=(const training_checkpointer&) = delete;

  std::uint64_t every_steps() const { return m_every; }
  // Whether a checkpoint follows step t (counted from 0).
  bool due(std::uint64_t t) const { return t + 1 == m_next; }
  // The number of the checkpoint to write next (from 1).
  std::uint64_t next_number() const { return m_pause_s.size() + 1; }
  // Writes this rank's shards of checkpoint k (durable when it returns), then removes them.
  // Returns false when a stop (SIGINT) cut the write short; throws run_error when a write fails.
  bool write(std::uint64_t k);
  // Rank 0, once every rank has written and removed its shards: the checkpoint's folder goes.
  void seal(std::uint64_t k);
  // The job's pause for one checkpoint, as every rank saw it (from the slowest writer): the
  // next checkpoint follows every_steps() later, the first pause choosing them when optimal.
  void add_pause(double seconds);
  // The report's "checkpoints" block; au is the run's accelerator utilization.
  report::checkpoints_section section(double wall_s, double au) const;

private:
  training_checkpoint_options m_opt;
  phase_io m_io;
  unsigned m_rank;
  double m_step_s;
  std::uint64_t m_every;
  std::uint64_t m_next; // the step count (from 1) the next checkpoint follows
  std::optional<report::checkpoint_interval_choice> m_choice;
  config::checkpoint_layout m_layout;
  dataset::checkpoint_set m_set;
  std::unique_ptr<dataset::block_pool> m_pool;
  bool m_made_folder = false;
  std::vector<double> m_pause_s, m_write_s; // per checkpoint: the job's pause, this rank's write
};

} // namespace dlsize::pipeline
