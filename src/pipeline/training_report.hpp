#pragma once
// The report of a training run, made on rank 0 from every rank's results: the job's summary
// (sums over ranks, merged histograms and epoch partials, never averaged percentiles), a row
// per accelerator, per rank and per host, the topology, every host's system facts, and the
// status with the reason, naming the rank and host it came from. With one rank it is the
// report dlsize always wrote.
#include <vector>

#include <nlohmann/json.hpp>

#include "cluster/communicator.hpp"
#include "core/sysinfo.hpp"
#include "dataset/layout.hpp"
#include "pipeline/rank_result.hpp"
#include "pipeline/sampler.hpp"
#include "pipeline/training_run.hpp"

namespace dlsize::pipeline {

struct report_context {
  const training_options& opt;
  const dataset::dataset_layout& layout;
  const sysinfo::mount_info& mount; // of rank 0's dataset path
  const sampler& smp;
  const cluster::communicator& comm;
  const nlohmann::json& command_line;
  const cluster::run_outcome& outcome;
  // Rank 0's clock (monotonic ns): the process's start, the run's common start, the end of
  // its own part, and when every rank's results were in.
  std::uint64_t process_start_ns = 0, start_ns = 0, end_ns = 0, gathered_ns = 0;
  const training_checkpointer* checkpoints = nullptr; // rank 0's, with --checkpoint-every
};

// ranks: the results that came, in rank order (a rank that never sent one is in
// outcome.missing).
training_result build_training_report(const report_context& ctx,
                                      const std::vector<rank_result>& ranks);

// The job's timeseries from every rank's, point by point (the ranks sample on the common start's
// clock): rates and process CPU add up over ranks, accelerator utilization is weighted by each
// rank's accelerators, host figures (host CPU, storage, memory, GPUs) come once per host. With
// one rank it is that rank's series.
std::vector<report::timeseries_point> merge_timeseries(const std::vector<rank_result>& ranks);

} // namespace dlsize::pipeline
