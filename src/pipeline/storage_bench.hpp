#pragma once
// The storage-only bench (--accelerator none): epochs over a dataset in a new random order
// each, samples read as the workload's loader reads them, every byte optionally verified.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/defaults.hpp"
#include "dataset/index_layout.hpp"
#include "io/engine.hpp"
#include "pipeline/dataset_access.hpp"
#include "pipeline/run_monitor.hpp"
#include "pipeline/sampler.hpp"
#include "report/bench_report.hpp"

namespace dlsize::pipeline {

struct storage_bench_options {
  std::string workload;
  std::filesystem::path dataset;
  dataset::index_request index; // index.index empty: the dataset's own manifest
  std::optional<s3_dataset> s3; // a dataset in a bucket (dataset is then its s3:// URL)
  io::engine_options io;
  std::uint64_t client_ram = 0; // --client-ram: the emulated client's RAM; 0: the host's
  shard_read shards = shard_read::records;
  std::uint64_t epochs = 1;
  std::uint64_t seed = 0;
  bool verify = false;
  double sample_interval_s = 1.0;
  double time_limit_s = 0;                                  // 0: none
  double stall_timeout_s = core::defaults::stall_timeout_s; // --stall-timeout; 0: none
  bool progress = true;
  nlohmann::json config; // the effective options, for the report
  status_hook status;    // the partial report of a long run
};

struct storage_bench_result {
  report::bench_report report;        // the whole report, status included
  bool failed = false;                // read errors or checksum mismatches
  std::vector<std::string> abandoned; // readers left in the kernel (engine_result::abandoned)
};

// Runs the bench. Throws usage_error for bad options or a dataset that does not fit the
// workload; read errors and mismatches are reported in the result, not thrown.
storage_bench_result run_storage_bench(const storage_bench_options& opt,
                                       const nlohmann::json& command_line);

} // namespace dlsize::pipeline
