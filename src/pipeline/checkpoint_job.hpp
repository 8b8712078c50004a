#pragma once
// dlsize checkpoint as one call: the options as parsed, the rule sequence on every rank, the
// MPI agreement, the report file reserved by rank 0, the run, the summary and the report.
// cli/checkpoint_cmd.cpp parses into checkpoint_job_options and calls run_checkpoint_job.
#include <string>

#include <nlohmann/json.hpp>

#include "config/checkpoint_rules.hpp"
#include "core/defaults.hpp"
#include "pipeline/checkpoint_run.hpp"
#include "s3/location.hpp"

namespace dlsize::pipeline {

// checkpoint's options, one member per option (docs/options.md), with their defaults, and what
// the command line says beyond their values.
struct checkpoint_job_options {
  config::checkpoint_request req; // req.given: the long options given ("--label")
  double scale = 1;
  bool subset = false;
  bool keep = false;
  unsigned read_shift = 0;
  std::string out;
  std::string cache = core::defaults::cache_text;
  unsigned queue_depth = core::defaults::queue_depth;
  bool quiet = false;
  bool no_verify = false;
  bool drop_caches = false;
  unsigned check_ranks = 0; // --check-only RANKS (sweep): check the options, then end; 0: run
  std::string rules = core::defaults::rules_text; // the MLPerf Storage edition the run is judged by
  std::string accelerator; // the simulated accelerator (v3.0 Table 3); empty: none declared
  s3::settings s3;         // --dir s3://BUCKET/PREFIX: where the bucket is
  std::string part_size = "64MiB";

  nlohmann::json effective;    // every option in effect, keyed by long name without dashes
  nlohmann::json command_line; // the report's command_line (report::command_line_json)
};

// The rule sequence: the request's rules, the workload's checkpoint block, the bucket (refusing
// the options of files) and its part size, the rules edition and the simulated accelerator, into
// the run's options (progress: this rank shows it unless --quiet). Holds the reads before the
// run to the stall timeout and time limit once known. Throws usage_error naming the option.
checkpoint_options checkpoint_options_of(const checkpoint_job_options& o, bool progress);

// Runs checkpoint on this rank of the job (cluster::world()) and returns the exit status: 0 when
// the run completed, 1 when it failed, stopped or its report fell back to another place. Throws
// usage_error for options the rules refuse (every rank alike, before any work).
int run_checkpoint_job(const checkpoint_job_options& o);

} // namespace dlsize::pipeline
