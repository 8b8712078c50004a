#pragma once
// The rules of bench's options, in one place: required keys, ranges of durations, the options
// only training runs take, and the combinations refused. cli/ parses the options into a
// bench_request and calls these; the engine's own options are io::check_engine_options's, the
// cache emulation's pipeline::check_cache_emulation's. Every rule throws usage_error naming the
// option and what is valid.
#include <cstdint>
#include <filesystem>
#include <set>
#include <string>

#include "config/accelerator_spec.hpp"
#include "config/checkpoint_interval.hpp"
#include "config/read_modes.hpp"
#include "config/workload.hpp"

namespace dlsize::config {

// A bench request's options as given: durations as typed, so that messages quote them.
struct bench_request {
  std::string workload;
  std::string dataset;
  std::string index; // --index: the dataset's folder comes from it
  std::string rank_timeout;
  std::string sample_interval;
  std::string status_interval;
  std::string time_limit; // empty: none
  std::string stall_timeout;
  std::string shard_read;
  std::string open;
  std::string engine; // --engine as in effect
  std::string label;
  std::string checkpoint_every; // empty: no checkpoints
  std::string checkpoint_dir;
  double checkpoint_scale = 1;
  std::string mttf; // --mttf, with --checkpoint-every optimal; empty: the default
  std::uint64_t epochs = 1;
  std::uint64_t replay_ranks = 0; // the ranks of the report given to --replay; 0: any
  std::uint64_t accelerators = 0;
  std::uint64_t accelerators_per_rank = 0;
  bool verify = false;
  // The long options given on the command line, by --config or by --replay ("--prefetch").
  std::set<std::string> given;
  bool has(const std::string& option) const { return given.count(option) > 0; }
};

// What the rules that hold for every run resolve: durations in seconds (0: none or never).
struct bench_timing {
  double rank_timeout_s = 0;
  double sample_interval_s = 0;
  double status_interval_s = 0;
  double time_limit_s = 0;
  double stall_timeout_s = 0;
  bool keep_open = true; // --open keep
  shard_read shards = shard_read::records;
};

// What --checkpoint-every and its companions resolve (the training run's checkpoint options).
struct bench_checkpoint {
  checkpoint_interval every; // neither steps nor seconds: no checkpoints, unless optimal
  // --checkpoint-every optimal: the goodput model picks the interval from the first
  // checkpoint's pause at the MTTF of one accelerator.
  bool optimal = false;
  double mttf_s = 0;
  std::string mttf_source;
  std::filesystem::path dir;
  double scale = 1;
};

// --time-limit (bench, checkpoint): its seconds, 0 when text is empty (no limit); a limit of 0s
// is refused, as it would stop the run before it starts.
double time_limit_of(const std::string& text);

// --stall-timeout (bench, datagen, verify): its seconds, 0 for never; at least 1s otherwise.
double stall_timeout_of(const std::string& text);

// --replay and --config: at most one of them.
void check_run_source(const std::string& replay, const std::string& config);

// The rules that hold whatever the accelerator: required keys, durations, counts, the label,
// the replay's rank count, --shard-read and --open. Checked before the workload is loaded.
bench_timing check_bench_request(const bench_request& r, std::uint64_t ranks);

// The rules that depend on the accelerator: a storage-only run (kind none) takes no training
// option and is one process; a training run takes no --verify and reads records, and only a
// CUDA one takes --precision. Returns the job's accelerators (0 for storage only).
std::uint64_t check_accelerator_rules(const bench_request& r, accelerator_kind kind,
                                      std::uint64_t ranks);

// --accelerators (the job's) and --accelerators-per-rank, one from the other: the job's
// accelerators, shared equally by its ranks.
std::uint64_t job_accelerators(const bench_request& r, std::uint64_t ranks);

// Where the dataset lives: an s3:// dataset (in_s3) is read by the s3 engine, so --engine other
// than s3 and the options of files (--cache, --client-ram, --open, --generate) are refused when
// given; a dataset on a file system refuses --engine s3 (the folder is named).
void check_dataset_place(const bench_request& r, bool in_s3);

// --checkpoint-every and its companions (training runs); inactive without it. Refuses a bare
// number or zero interval, a companion alone, a profile without a checkpoint block, a missing
// --checkpoint-dir, a --checkpoint-scale outside (0, 1], and --mttf other than with optimal (or
// not above 0).
bench_checkpoint check_checkpoint_options(const bench_request& r, const workload_profile& w);

} // namespace dlsize::config
