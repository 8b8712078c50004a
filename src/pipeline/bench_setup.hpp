#pragma once
// The rule sequence of bench: the options a bench job was given, checked in the order their
// messages are meant to come, and resolved into what the runs take (the workload, the
// accelerator, the engine, the job's accelerators and layout, the checkpoints, the dataset's
// place). Every step throws usage_error naming the option and what would be valid.
#include <cstdint>
#include <optional>

#include "config/accelerator_spec.hpp"
#include "config/allreduce_config.hpp"
#include "config/bench_rules.hpp"
#include "config/nic_rates.hpp"
#include "config/workload.hpp"
#include "dataset/index_layout.hpp"
#include "io/engine.hpp"
#include "pipeline/bench_job.hpp"
#include "pipeline/dataset_access.hpp"
#include "pipeline/sampler.hpp"
#include "pipeline/training_checkpoint.hpp"

namespace dlsize::pipeline {

// A bench job's options resolved; what the storage-only or training run is made of.
struct bench_setup {
  config::bench_timing timing;
  config::workload_profile profile;
  config::accelerator_spec spec;
  dataset::index_request index;
  std::optional<s3_dataset> s3; // the dataset is in a bucket
  io::engine_options io;
  std::uint64_t client_ram = 0;   // --client-ram; 0: no cache emulation
  std::uint64_t accelerators = 0; // the job's (0: storage only)
  config::allreduce_setup allreduce;
  config::layout_choice layout;
  double preprocess_s = 0;
  double au_threshold = 0; // training runs: --au-threshold, or the profile's
  training_checkpoint_options checkpoint;
  shard_read shards = shard_read::records;
  config::nic_rates nic_rates; // --nic-bandwidth
};

// The request config::bench_rules judge: the options as given. Its first rule,
// config::check_bench_request (durations, counts, the replay's ranks), gives the timing, so that
// the job's rank timeout is known before any other rule can fail.
config::bench_request bench_request_of(const bench_job_options& o);

// The rest of the sequence, for the request of o and its timing, and a job of `ranks` ranks on
// `nodes` nodes: the workload, the
// accelerator (a CUDA one needs a device), the index, the allreduce model, the dataset's place
// and engine, the cache emulation, the accelerators' rules, the training options, and the
// threads the run needs. Holds the reads before the run to timing's stall timeout and time limit
// (core::watch_inputs) from the point their options are known.
bench_setup resolve_bench_setup(const bench_job_options& o, const config::bench_request& req,
                                const config::bench_timing& timing, std::uint64_t ranks,
                                std::uint64_t nodes);

} // namespace dlsize::pipeline
