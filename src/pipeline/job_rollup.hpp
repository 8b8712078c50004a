#pragma once
// The job's figures as pure sums over its ranks' results (no I/O, no JSON): what the training
// report's sections print. Unit-tested on numbers (tests/unit/test_job_rollup.cpp).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/histogram.hpp"
#include "io/engine.hpp"
#include "pipeline/rank_result.hpp"
#include "pipeline/step_metrics.hpp"
#include "telemetry/cpu_usage.hpp"

namespace dlsize::pipeline {

// One host's ranks: host-wide counters (storage, host CPU, memory) come from its first rank.
struct host_rollup {
  int node = 0;
  const rank_result* first = nullptr;
  std::vector<int> ranks;
  std::vector<accelerator_figures> accelerators;
  std::uint64_t read_bytes = 0, samples = 0;
};

struct job_rollup {
  std::vector<accelerator_figures> accelerators; // every accelerator whose results came
  io::reader_stats io;                           // every rank's readers, merged
  std::optional<s3::transfer_stats> s3;          // every rank's S3 figures, merged (a bucket)
  histogram sample_latency;
  std::uint64_t failed_samples = 0, samples = 0, steps_run = 0;
  std::uint64_t steps_min = 0; // steps of the slowest accelerator of the job
  std::uint64_t pre_samples = 0, pre_bytes = 0, pre_cpu_ns = 0, pre_passes = 0, pre_digest = 0;
  std::string first_error; // the first rank's first failed read
  std::vector<epoch_partial> epochs;
  // Process CPU summed over ranks, host CPU the mean over hosts, utilization over the wall.
  telemetry::cpu_usage cpu;
  double wall_s = 0;                 // the slowest rank's
  double stat_s = 0, open_s = 0;     // the slowest rank's, before the run (rank_result)
  std::vector<std::string> warnings; // every rank's, each once, in order of first appearance
  std::vector<host_rollup> hosts;    // by node
  std::uint64_t storage_bytes = 0;   // the storage counters of every host, added up
  bool storage_everywhere = false;   // every host has a storage counter
};

// Ranks' indexes (into ranks) by node, each host's first rank first.
std::map<int, std::vector<std::size_t>> ranks_by_node(const std::vector<rank_result>& ranks);

// ranks: the results that came; epochs: the run's.
job_rollup roll_up(const std::vector<rank_result>& ranks, std::uint64_t epochs);

double cpu_seconds(const telemetry::cpu_usage& u);

} // namespace dlsize::pipeline
