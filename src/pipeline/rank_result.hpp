#pragma once
// What one rank measured in a training run, carried to rank 0 (as JSON, written and read only by
// pipeline/rank_result_json.cpp) where the job's report is made from every rank's. Everything
// in it merges across ranks without loss: sums, merged histograms, epoch partials on the run's
// common time base (ns since the common start).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/histogram.hpp"
#include "core/stop.hpp"
#include "io/engine.hpp"
#include "pipeline/step_metrics.hpp"
#include "s3/transfer_stats.hpp"
#include "telemetry/cpu_usage.hpp"
#include "telemetry/host_facts.hpp"
#include "telemetry/nic_counters.hpp"

namespace dlsize::pipeline {

struct rank_result {
  int rank = 0;
  std::string host;
  int node = 0;
  int local_rank = 0;
  std::uint64_t first_accelerator = 0; // global id of its first accelerator
  std::vector<std::string> devices;    // per accelerator of this rank
  std::vector<accelerator_figures> accelerators;
  std::vector<nlohmann::json>
      details; // per accelerator: a real GPU's device and step figures, else null
  std::vector<std::uint64_t> sample_digests; // per accelerator: what it read, by step
  std::vector<epoch_partial> epochs;
  std::uint64_t steps_min = 0; // steps its slowest accelerator ran
  std::uint64_t steps_run = 0; // over its accelerators
  std::uint64_t samples = 0;   // consumed by its accelerators

  io::reader_stats io;                  // its readers, added up
  std::optional<s3::transfer_stats> s3; // the s3 engine's figures (a dataset in a bucket)
  std::string engine, uncached_method;
  double stat_s = 0, open_s = 0; // before the run: the files' stats, --open keep's opens
  histogram sample_latency;
  std::uint64_t failed_samples = 0;
  std::string first_error;

  std::uint64_t pre_samples = 0, pre_bytes = 0, pre_cpu_ns = 0, pre_passes = 0, pre_digest = 0;

  double wall_s = 0;
  telemetry::cpu_usage cpu;
  bool storage_counter = false;
  std::string storage_source;
  std::uint64_t storage_bytes = 0;
  telemetry::memory_figures memory_start, memory_end;
  std::vector<telemetry::nic_bytes> nics; // what its host's NICs carried over the run
  std::vector<report::timeseries_point> timeseries;
  telemetry::host_facts host_facts; // the report's system.hosts entry for its host
  nlohmann::json warnings = nlohmann::json::array();
  std::string fail_reason; // as this rank saw it
  stop_event stop;         // a stop this rank's monitor asked for

  nlohmann::json to_json() const;
  // Throws run_error naming the field when the JSON is not a rank result.
  static rank_result from_json(const nlohmann::json& j);
};

nlohmann::json reader_stats_json(const io::reader_stats& s);
io::reader_stats reader_stats_from_json(const nlohmann::json& j);

// What every rank of a training run must agree on before it starts (training_run::fingerprint):
// the dataset it opened (its id, bytes and files) and the run's config block.
// A real GPU's row: its device and steps (accel's run_details) with NVML's summary of it over the
// run (null where NVML did not see it).
nlohmann::json gpu_details_json(nlohmann::json details,
                                const std::optional<telemetry::gpu_summary>& nvml);

nlohmann::json run_fingerprint_json(std::uint64_t dataset_id, std::uint64_t dataset_bytes,
                                    std::uint64_t dataset_files, const nlohmann::json& config);

} // namespace dlsize::pipeline
