#pragma once
// The report `dlsize checkpoint` writes ("schema": "dlsize.report/1", "kind": "checkpoint";
// docs/report-schema.md#checkpoint), as one typed value: pipeline/checkpoint_run fills it (the
// figures of each phase from pipeline/checkpoint_report, the bucket's from pipeline/checkpoint_s3),
// render/checkpoint_summary prints it, and report/checkpoint_json.cpp alone turns it into JSON and
// back. The blocks other modules make for every report (tool, system, the effective options) ride
// along as they are.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/checkpoint_profile.hpp"
#include "core/histogram.hpp"
#include "report/bench_report.hpp"
#include "report/mlperf_validity.hpp"
#include "report/run_status.hpp"

namespace dlsize::report {

// One rank's bytes and time, in one run or over every run of a phase.
struct checkpoint_rank_figures {
  std::uint64_t rank = 0, bytes = 0;
  double seconds = 0, bytes_per_s = 0;
};

// One write or read of one checkpoint: its duration is the slowest rank's, its throughput the
// slowest rank's rate.
struct checkpoint_run_figures {
  std::uint64_t checkpoint = 0; // its number
  double duration_s = 0;
  std::uint64_t bytes = 0;
  double bytes_per_s = 0, throughput_bytes_per_s = 0;
  std::vector<checkpoint_rank_figures> ranks;
};

// The runs' durations: mean, shortest, longest.
struct checkpoint_durations {
  double mean = 0, min = 0, max = 0;
};

// The writes' data generation against waiting on storage.
struct checkpoint_generation {
  double fill_s = 0, completion_wait_s = 0, starved_s = 0, starved_share = 0, writer_s = 0;
  double fill_share = 0, completion_wait_share = 0;
};

// The reads' check of every block.
struct checkpoint_verify {
  bool enabled = true; // false with --no-verify: blocks is 0
  std::uint64_t blocks = 0, mismatches = 0;
  std::vector<std::string> problems; // the first failing blocks
};

// The `write` or `read` block (docs/metrics.md): over every run done, total bytes over total time.
struct checkpoint_phase_figures {
  std::uint64_t asked = 0, count = 0, bytes = 0;
  double seconds = 0, bytes_per_s = 0;
  checkpoint_durations duration_s;   // over runs
  double throughput_bytes_per_s = 0; // the mean over runs of the slowest rank's rate
  histogram latency;                 // per request
  double cpu_s = 0, cpu_s_per_gib = 0;
  std::vector<checkpoint_rank_figures> per_rank;
  std::vector<checkpoint_run_figures> runs;
  std::optional<histogram> fsync_latency;          // writes: per file
  std::optional<checkpoint_generation> generation; // writes
  std::optional<checkpoint_verify> verify;         // reads
};

// checkpoint.s3, for --dir s3://BUCKET/PREFIX: the bucket and what every rank's requests did.
struct checkpoint_s3_section {
  std::vector<std::string> endpoints;
  std::string bucket, prefix, region, addressing, server;
  std::uint64_t part_size = 0, parts_in_flight = 0;
  s3_section write, read;
  latency_summary upload_time; // per object
  // {setting: where it came from} (as storage.s3.settings_from); absent in older reports.
  std::optional<std::map<std::string, std::string>> settings_from;
};

// A failure that ended the run: where (the phase, the checkpoint, the rank and the file) and what.
struct checkpoint_failure {
  std::string phase; // "write" or "read"
  std::uint64_t checkpoint = 0;
  std::uint64_t rank = 0;
  std::optional<std::string> file; // none when the error names none
  std::string error;
};

// The report's `checkpoint` section.
struct checkpoint_section {
  std::string dir, fs_type;
  std::uint64_t ranks = 0, job_ranks = 0;
  std::uint64_t tensor_parallel = 1, pipeline_parallel = 1, data_parallel = 1;
  bool subset = false;
  double scale = 1;
  std::uint64_t files_per_rank = 1, request_size = 0, queue_depth = 0;
  std::string cache_mode; // "none" for a bucket
  bool registered_buffers = false;
  std::vector<std::uint64_t> bytes_per_rank;
  std::uint64_t bytes_per_checkpoint = 0, coexisting_checkpoints = 0;
  bool kept = false;
  // Absent from reports made before --read-shift, --drop-caches and --dedupe-percent and
  // --compress-percent existed.
  std::optional<std::uint64_t> read_shift;
  std::optional<bool> caches_dropped;
  std::optional<std::uint64_t> dedupe_percent, compress_percent;
  checkpoint_phase_figures write, read;
  std::optional<checkpoint_s3_section> s3;
  std::optional<checkpoint_failure> failure;
};

// The report's `workload`: the profile's name and its checkpoint block as parsed.
struct checkpoint_workload {
  std::string name;
  config::checkpoint_profile checkpoint;
};

struct checkpoint_document {
  // The envelope every report starts with (as bench_report.hpp's new_bench_report fills it).
  std::string run_id, created_at;
  std::optional<double> created_unix_s;
  nlohmann::json tool; // report::tool_json()
  std::vector<std::string> command_line;
  nlohmann::json config; // the effective options, keyed by long name
  std::optional<std::string> label;
  checkpoint_workload workload;
  system_section system; // report::system_of()
  checkpoint_section checkpoint;
  std::optional<fs_separation_section> fs_separation; // report/fs_separation.hpp
  std::optional<validity> mlperf_validity;            // absent from reports made before --rules
  std::vector<std::string> warnings;
  run_status status = run_status::complete;
  std::optional<std::string> reason;
};

// Whether j says it is a checkpoint report (kind checkpoint), for telling it from other files.
bool is_checkpoint_report(const nlohmann::json& j);

// The JSON of a checkpoint report: the one place its keys are written.
nlohmann::json to_json(const checkpoint_document& d);
// Reads a checkpoint report back. Throws usage_error naming the source and the JSON pointer of
// the first key that is missing or of another type ("FILE: /checkpoint/write/bytes: missing").
checkpoint_document checkpoint_document_from_json(const nlohmann::json& j,
                                                  const std::string& source = "report");

} // namespace dlsize::report
