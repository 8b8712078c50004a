#pragma once
// A workload's checkpoint: how many bytes of model and optimizer state it saves and how the
// job's tensor/pipeline/data-parallel layout and ZeRO stage share them out over ranks, with the
// published figures and their sources (workloads/*.json, "checkpoint" block). checkpoint_shares
// applies MLPerf Storage's per-rank rule (docs/checkpoint.md) to a job of any rank count.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace dlsize::core {
class json_checker;
}

namespace dlsize::config {

struct checkpoint_profile {
  std::uint64_t parameters = 0;
  double model_bytes_per_parameter = 0;
  double optimizer_bytes_per_parameter = 0;
  // Job totals: as published where a figure is (mlpstorage's GiB), else parameters × bytes per
  // parameter.
  std::uint64_t model_bytes = 0;
  std::uint64_t optimizer_bytes = 0;
  unsigned tensor_parallel = 1, pipeline_parallel = 1, data_parallel = 1;
  // 0: plain data parallel (rank 0 saves everything); 1 or 2: optimizer sharded over every
  // rank, the model saved by the first data-parallel replica; 3: everything sharded evenly.
  unsigned zero_stage = 0;
  bool estimate = false; // dlsize's own figure, not a published one
  std::string published, source;

  std::uint64_t total_bytes() const { return model_bytes + optimizer_bytes; }
  unsigned model_parallel() const { return tensor_parallel * pipeline_parallel; }
  unsigned job_ranks() const { return model_parallel() * data_parallel; }
};

// Parses the "checkpoint" block of a profile (c names the file in errors). Throws usage_error
// naming the key for a missing or bad value, and when model_bytes or optimizer_bytes disagree
// with parameters × bytes per parameter by more than 5 %.
checkpoint_profile parse_checkpoint(const nlohmann::json& block, const core::json_checker& c);

// How a run lays the checkpoint on the ranks it has.
struct share_options {
  double scale = 1;    // every share × scale (--scale), above 0 and at most 1
  bool subset = false; // the launched ranks write the unscaled shares of the full job's first
                       // ranks (MLPerf's subset mode) instead of a re-laid job
};

struct rank_share {
  std::uint64_t model_bytes = 0, optimizer_bytes = 0;
  std::uint64_t bytes() const { return model_bytes + optimizer_bytes; }
};

struct checkpoint_layout {
  unsigned tensor_parallel = 1, pipeline_parallel = 1, data_parallel = 1;
  unsigned job_ranks = 1;         // the ranks of the job whose shares are written
  std::vector<rank_share> shares; // one per launched rank
  std::uint64_t bytes() const;    // all launched ranks together
};

// Each launched rank's share. By default the job is re-laid on the launched ranks (data
// parallel = ranks / (TP × PP)); with subset the full job keeps its layout and the launched
// ranks are its first ones. Throws usage_error when ranks do not divide by TP × PP (naming what
// would), when a subset has more ranks than the job, or for a scale outside (0, 1].
checkpoint_layout checkpoint_shares(const checkpoint_profile& p, unsigned ranks,
                                    const share_options& opt);

// The profile's block as the report shows it.
nlohmann::json to_json(const checkpoint_profile& p);

} // namespace dlsize::config
