#pragma once
// The figures of the report's `checkpoint` section (docs/report-schema.md, docs/metrics.md)
// from what every rank measured in every write or read: per run the duration is the slowest
// rank's time and the throughput the slowest rank's rate (as MLPerf Storage scores them), and
// over all runs total bytes over total time, never a mean of rates.
#include <cstdint>
#include <vector>

#include "pipeline/checkpoint_phase.hpp"
#include "report/checkpoint_document.hpp"

namespace dlsize::pipeline {

// One write or read of one checkpoint: every rank's part, by rank.
struct phase_run {
  std::uint64_t checkpoint = 0;
  std::vector<rank_phase> ranks;
};

// The `write` or `read` block: runs, per-rank and aggregate bandwidth, durations, latencies,
// CPU per GiB, and for writes the data-generation share, for reads the verification.
report::checkpoint_phase_figures phase_figures(const std::vector<phase_run>& runs,
                                               std::uint64_t asked, bool writes);

} // namespace dlsize::pipeline
