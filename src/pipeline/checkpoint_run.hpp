#pragma once
// `dlsize checkpoint`: every rank of the job writes its share of a workload's checkpoint at
// once, --writes times (a folder per checkpoint, written then renamed), then reads them back
// --reads times, oldest first, checking every block; rank 0 gathers what every rank measured
// into a dlsize.report/1 report of kind "checkpoint" (docs/checkpoint.md).
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "cluster/communicator.hpp"
#include "config/workload.hpp"
#include "pipeline/checkpoint_phase.hpp"
#include "pipeline/checkpoint_s3.hpp"
#include "report/checkpoint_document.hpp"
#include "report/rules_edition.hpp"

namespace dlsize::pipeline {

struct checkpoint_options {
  config::workload_profile workload; // with a checkpoint block
  std::filesystem::path dir;
  std::optional<s3_checkpoint> s3; // --dir s3://BUCKET/PREFIX: objects instead of a folder
  std::uint64_t writes = 10, reads = 10;
  config::share_options shares;
  unsigned files_per_rank = 1;
  bool keep = false;           // leave the checkpoints (and the folder's manifest) in place
  std::uint64_t keep_last = 0; // 0: every written checkpoint coexists
  // Reads: rank r reads the shards rank (r + read_shift) mod ranks wrote, so that a client's
  // cache of what it wrote does not serve its reads (MLPerf's restore from other hosts).
  unsigned read_shift = 0;
  phase_io io;
  dataset::block_content content; // --dedupe-percent, --compress-percent (the writes' payload)
  // Which of the options that describe the content were given on the command line: a --writes 0
  // restore refuses those that differ from what its folder's manifest says was written.
  bool content_given = false, scale_given = false, subset_given = false;
  bool drop_caches = false; // sync and drop the host's page cache before every read
  double time_limit_s = 0;  // no checkpoint starts after this long (0: none)
  bool progress = true;
  std::string label;
  report::rules_edition rules = report::kDefaultRules; // --rules: the edition that judges the run
  std::optional<std::string> accelerator; // --accelerator: the simulated accelerator (Table 3)
  nlohmann::json config;                  // the effective options, for the report
  // Rank 0: the devices of --dir and of the report's folder, taken before the run
  // (report/fs_separation.hpp); null: not known.
  std::optional<report::fs_separation_section> fs_separation;
};

// The checks of the options that need the I/O layer or the job's ranks, but no folder (every
// rank runs them, after config::check_checkpoint_request): throws usage_error.
void check_checkpoint_options(const checkpoint_options& opt, unsigned ranks);

struct checkpoint_result {
  std::optional<report::checkpoint_document> report; // rank 0's; none on the other ranks
  bool failed = false; // a verification or a write or read failed (the report says where)
};

// Runs the job's writes and reads. Throws usage_error for a folder it must refuse (before any
// write). A rank's failure while writing or reading (ENOSPC, EIO, a shard missing) ends the run
// with an incomplete report naming the phase, the checkpoint, the rank, the file and the error,
// and keeping the figures of the checkpoints done before it; SIGINT and a stall end it early
// with an incomplete report too; partial shards are removed.
checkpoint_result run_checkpoint(const checkpoint_options& opt, cluster::communicator& comm,
                                 const nlohmann::json& command_line);

} // namespace dlsize::pipeline
