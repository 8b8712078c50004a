#pragma once
// dlsize bench as one call: the options as parsed (by the command line, --config or --replay),
// then the rules on every rank, the MPI agreement, the dataset generated on first use, the
// storage-only or training run with its partial report, and the finished report (summary,
// verdict, the file). cli/bench_cmd.cpp parses into bench_job_options and calls run_bench_job.
#include <cstdint>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "config/allreduce_config.hpp"
#include "core/defaults.hpp"
#include "s3/location.hpp"

namespace dlsize::pipeline {

// bench's options, one member per option (docs/options.md), with their defaults, and what the
// command line says beyond their values.
struct bench_job_options {
  std::uint64_t replay_ranks = 0; // of the report given to --replay; 0: any
  std::uint64_t check_ranks = 0;  // --check-only RANKS (sweep): check the options as for so many
                                  // ranks, then end; 0: run
  std::string workload;
  std::string dataset;
  std::string index; // a dataset read through its index (dlsize index)
  std::string on_change = "stop";
  std::string generate;
  std::string accelerator = "none";
  std::uint64_t accelerators = 0;          // the job's; 0: per rank × ranks
  std::uint64_t accelerators_per_rank = 0; // 0: accelerators / ranks, or 1
  std::string rank_timeout = "60s";
  std::string stall_timeout = core::defaults::stall_timeout_text;
  std::string nic_bandwidth; // declared NIC rates (config::parse_nic_rates); empty: none
  std::uint64_t batch_size = 0;
  std::string compute_time;
  std::string compute_time_stdev;
  std::string au_threshold;
  std::string rules = core::defaults::rules_text; // the MLPerf Storage edition the run is judged by
  std::uint64_t prefetch = 2;
  bool sync_steps = false;
  config::allreduce_request allreduce;
  std::string preprocess;
  std::string precision = core::defaults::precision_text;
  std::string out;
  std::string engine = "io_uring";
  std::string cache = core::defaults::cache_text;
  std::string client_ram; // the cache emulation's RAM; empty: none
  unsigned queue_depth = core::defaults::queue_depth;
  std::string request_size = core::defaults::request_size_text;
  unsigned readers = 1;
  std::uint64_t epochs = 1;
  std::uint64_t seed = 0;
  std::string max_read_rate;
  std::string open = "keep";
  std::string shard_read = "records";
  std::string time_limit;
  std::string sample_interval = "1s";
  std::string label;
  std::string status_interval = "30s";
  std::string checkpoint_every; // empty: no checkpoints
  std::string checkpoint_dir;
  double checkpoint_scale = 1;
  std::string mttf; // --mttf: with --checkpoint-every optimal
  bool verify = false;
  bool quiet = false;
  s3::settings s3; // --s3-*: how to reach an s3:// dataset

  // The long options given on the command line, by --config or by --replay ("--prefetch").
  std::set<std::string> given;
  nlohmann::json effective;    // every option in effect, keyed by long name without dashes
  nlohmann::json given_config; // the given options' values (the report's config_given)
  nlohmann::json command_line; // the report's command_line (report::command_line_json)
};

// Runs bench on this rank of the job (cluster::world()) and returns the exit status: 0 when the
// run completed, 1 when it failed, stopped or its report fell back to another place (stderr says
// why). Throws usage_error for options the rules refuse (every rank alike, before any work, and
// nothing reserved), cluster::job_error when the job must end with a status of its own.
int run_bench_job(const bench_job_options& o);

} // namespace dlsize::pipeline
