#pragma once
// A training run with emulated (or, later, real) accelerators: the pipeline of DESIGN.md, on
// every rank of the job. The sampler shards each epoch over all accelerators of all ranks; a
// rank's readers read its own accelerators' batches into their prefetch queues (--prefetch
// slots per accelerator), with optional CPU preprocessing on the bytes; each accelerator thread
// waits for its next batch, holds it for the step's compute time, and records the step. All
// accelerators of the job meet at every epoch's end (epoch starts are aligned, as DLIO's epoch
// barrier does) and, with --sync-steps, after every step (the gradient allreduce's stand-in).
// Rank 0 gathers every rank's results and makes the one report.
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "cluster/communicator.hpp"
#include "config/accelerator_spec.hpp"
#include "config/allreduce_config.hpp"
#include "config/nic_rates.hpp"
#include "config/workload.hpp"
#include "core/defaults.hpp"
#include "dataset/index_layout.hpp"
#include "io/engine.hpp"
#include "pipeline/dataset_access.hpp"
#include "pipeline/run_monitor.hpp"
#include "pipeline/sampler.hpp"
#include "pipeline/training_checkpoint.hpp"

namespace dlsize::pipeline {

struct training_options {
  config::workload_profile workload;
  config::accelerator_spec accelerator;
  std::filesystem::path dataset;
  dataset::index_request index; // index.index empty: the dataset's own manifest
  std::optional<s3_dataset> s3; // a dataset in a bucket (dataset is then its s3:// URL)
  io::engine_options io;
  std::uint64_t client_ram = 0;            // --client-ram: the emulated client's RAM; 0: the host's
  std::uint64_t accelerators = 1;          // the job's, every rank's together (an equal share each)
  std::uint64_t prefetch = 2;              // batches loaded ahead per accelerator
  shard_read shards = shard_read::records; // --shard-read: the sampler's mode
  bool sync_steps = false;
  // --allreduce: every step ends with a barrier of the job's accelerators, then holds each for
  // the modelled exposed time of the gradient allreduce over this layout.
  config::allreduce_setup allreduce;
  model::job_layout layout;
  bool declared_layout = false; // --ranks-per-node / --accelerators-per-node on one host
  bool step_sync() const { return sync_steps || allreduce.active(); }
  double preprocess_s = 0;                // CPU time per sample; 0: no preprocessing
  training_checkpoint_options checkpoint; // --checkpoint-every: inactive unless given
  std::string precision = core::defaults::precision_text; // --accelerator cuda: fp16, tf32 or fp32
  std::uint64_t epochs = 1;
  std::uint64_t seed = 0;
  double sample_interval_s = 1.0;
  double time_limit_s = 0; // 0: none
  double stall_timeout_s =
      core::defaults::stall_timeout_s; // --stall-timeout (every rank; the job's link too); 0: none
  config::nic_rates nic_rates;         // --nic-bandwidth: the rates the hosts' NICs are judged by
  bool progress = true;
  nlohmann::json config; // the effective options, for the report
  status_hook status;    // rank 0: the partial report of a long run
};

struct training_result {
  nlohmann::json report;              // rank 0 only (null elsewhere)
  bool failed = false;                // the job's run failed or was interrupted (every rank knows)
  bool broken = false;                // a rank stopped answering: the job cannot end cleanly
  bool root_lost = false;             // ... and that rank is rank 0 (this rank is not)
  std::string reason;                 // the job's halt, as its rank said it
  std::vector<std::string> abandoned; // this rank's readers left in the kernel
};

// One rank's part of a training run. The constructor does everything that can fail before the
// run starts (the dataset, its files, the topology, the engine), so that the ranks can agree
// on it first; run() then coordinates with the other ranks.
class training_run {
public:
  // Throws usage_error for a dataset that does not fit the workload or the topology, run_error
  // for missing or truncated files.
  training_run(const training_options& opt, cluster::communicator& comm);
  ~training_run();
  training_run(const training_run&) = delete;
  training_run& operator=(const training_run&) = delete;

  // What must be the same on every rank: the dataset (id, size, files) and the options.
  nlohmann::json fingerprint() const;
  // With real GPUs on several ranks: joins them in one NCCL communicator (rank 0's id over MPI,
  // then an agreement). Every rank calls it after the ranks agreed on their construction.
  void join_ranks();
  // Runs this rank's part; read errors end the job's run with an incomplete report.
  training_result run(const nlohmann::json& command_line);

private:
  struct state;
  struct live_run; // one run()'s shared state and its pieces
  std::unique_ptr<state> m;
};

} // namespace dlsize::pipeline
