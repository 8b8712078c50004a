#pragma once
// A storage's checkpoint writes and restores scaled to a job of N accelerators (one rank each),
// and the goodput model over N: the table of counts, the loss curve, the most accelerators that
// keep the loss under a target, and the write bandwidth that would. A checkpoint is scored as
// MLPerf Storage scores it, by its slowest rank: each rank writes its share (the profile's rule,
// config::checkpoint_shares) at no more than the rank rate measured, and all ranks together at
// no more than the aggregate measured or given, so a checkpoint of N ranks takes
// max(largest share ÷ rank rate, job bytes ÷ aggregate). More ranks are never assumed to write
// faster than the storage was seen to.
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "analysis/goodput.hpp"
#include "analysis/goodput_document.hpp"
#include "config/checkpoint_profile.hpp"

namespace dlsize::analysis {

// How fast a checkpoint phase (write or restore) runs for a job of any size.
struct phase_rates {
  double bytes_per_s = 0;                                            // all ranks together, at most
  double rank_bytes_per_s = std::numeric_limits<double>::infinity(); // one rank, at most
  std::string source;
};

// The inputs of the goodput section.
struct goodput_setup {
  std::string workload, backend;
  config::checkpoint_profile profile; // the job's bytes and each rank's share at any N
  std::string checkpoint_source;
  phase_rates write, restore;
  double mttf_s = kDefaultMttfS;
  std::string mttf_source = kDefaultMttfSource;
  double restart_overhead_s = kDefaultRestartOverheadS;
  std::string restart_overhead_source = kDefaultRestartOverheadSource;
  bool async = false;
  double staging_bytes_per_s = 0; // per accelerator: the copy to host memory, async only
  double max_loss = 0.05;
};

// The counts of the table when none are asked: 1k, 4k, 16k, 64k and 100k accelerators.
std::vector<std::uint64_t> default_goodput_counts();

// The largest share one rank of an N-rank job writes, by the profile's rule for any N: ZeRO 3
// total ÷ N; ZeRO 1 and 2 optimizer ÷ N + model ÷ (TP·PP) (the first replica's ranks); ZeRO 0
// everything (rank 0). Equal to config::checkpoint_shares' largest where N holds TP·PP, but for
// the rounding of bytes that do not divide.
double largest_rank_bytes(const config::checkpoint_profile& p, double ranks);

// One checkpoint phase's seconds at N ranks: max(largest share ÷ rank rate, bytes ÷ aggregate).
double phase_seconds(const phase_rates& r, const config::checkpoint_profile& p, double ranks);

// The costs at N accelerators; write_bytes_per_s, when above 0, replaces the write's rates (the
// inverse solve asks what a storage of that bandwidth would cost).
checkpoint_costs costs_at(const goodput_setup& s, double accelerators,
                          double write_bytes_per_s = 0);

// The model's row at N.
goodput_row_document goodput_row(const goodput_setup& s, std::uint64_t accelerators);

// The section: a row per count (and one for `planned` when above 0), the loss curve, and the
// most accelerators within max_loss (searched up to 10^8). Throws usage_error for rates not
// above 0, an MTTF not above 0, or max_loss outside (0, 1).
goodput_document goodput_curve(const goodput_setup& s, std::vector<std::uint64_t> counts,
                               std::uint64_t planned = 0);

} // namespace dlsize::analysis
