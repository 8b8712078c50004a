#pragma once
// The goodput section of a plan, a sizing and a comparison, as one typed value: what failures,
// checkpoints and restarts cost a job of N accelerators on one storage, from its write and
// restore bandwidth (analysis/goodput_curve fills it, render/goodput_text and goodput_tables
// print it, analysis/goodput_json.cpp alone turns it into JSON).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

namespace dlsize::analysis {

// A checkpoint phase's rates as the model uses them: the aggregate never exceeded, the one rank
// never exceeded (none: not limited per rank), and where they come from.
struct goodput_rates_document {
  double bytes_per_s = 0;
  std::optional<double> rank_bytes_per_s;
  std::string source;
};

// Shares of the wall time lost.
struct goodput_loss_document {
  double checkpoints = 0, rework = 0, restarts = 0, total = 0;
};

// The model at one accelerator count.
struct goodput_row_document {
  std::uint64_t accelerators = 0;
  double system_mttf_s = 0;
  double largest_rank_bytes = 0;
  double write_bytes_per_s = 0; // the job's bytes ÷ the write's time at this count
  double write_s = 0;           // one checkpoint's write to storage
  double pause_s = 0;           // training stops this long per checkpoint (δ)
  double drain_s = 0;           // async: the write after the pause; 0 for sync
  double restore_s = 0;         // the restore read
  double restart_s = 0;         // R: the restore read plus the restart overhead
  double young_s = 0;
  std::optional<double> daly_s, interval_s; // none: checkpoints cannot keep up
  bool keeps_up = false, drain_bound = false;
  std::optional<goodput_loss_document> loss; // none: checkpoints cannot keep up
  std::optional<double> goodput;
  // The write bandwidth (all ranks) that keeps the loss at max_loss, the restore held; none when
  // no bandwidth does (the restarts alone lose more).
  std::optional<double> write_bytes_per_s_for_max_loss;
  bool meets_max_loss = false;
};

// One point of the loss curve against the accelerators (the chart's).
struct goodput_point_document {
  std::uint64_t accelerators = 0;
  double loss = 1; // 1: checkpoints cannot keep up
};

struct goodput_document {
  std::string workload, backend;
  double checkpoint_bytes = 0;
  std::string checkpoint_source;
  double mttf_s = 0;
  std::string mttf_source;
  bool async = false;
  std::optional<double> staging_bytes_per_s; // per accelerator, async only
  double restart_overhead_s = 0;
  std::string restart_overhead_source;
  goodput_rates_document write, restore;
  double max_loss = 0.05;
  std::uint64_t accelerators = 0; // the count planned (plan --accelerators); 0: none
  std::vector<goodput_row_document> rows;
  std::vector<goodput_point_document> curve;
  // The most accelerators whose loss stays at or under max_loss (0: not even one), and whether
  // the search stopped at its limit while the loss still held.
  std::uint64_t holds_max_loss_up_to = 0;
  bool holds_beyond_search = false;
  std::vector<std::string> assumptions, warnings;

  // The row of the count planned, or nullptr.
  const goodput_row_document* planned() const;
};

// The JSON of the section (docs/plan.schema.json's `goodput`, and each entry of the sizing's and
// the comparison's `goodput`).
nlohmann::json to_json(const goodput_document& d);

} // namespace dlsize::analysis
