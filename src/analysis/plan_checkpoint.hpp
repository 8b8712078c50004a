#pragma once
// The write side of `dlsize plan`: how fast storage must write so that saving the checkpoint
// every interval costs at most a share of training time, and how long a restore takes.
// Synchronous checkpointing pauses every accelerator until the slowest rank has written, so a
// checkpoint of t seconds every T seconds of training costs t / (T + t) of the wall time:
// at most the overhead o means t ≤ o · T / (1 − o). An asynchronous checkpoint (--async) only
// has to be written before the next one starts: t ≤ T. The job writes its bytes once per
// checkpoint; each rank writes its share (config::checkpoint_shares) and each client the
// shares of the ranks on it, all at once.
#include <cstdint>

#include "analysis/plan_document.hpp"
#include "config/checkpoint_interval.hpp"
#include "config/checkpoint_profile.hpp"

namespace dlsize::analysis {

struct checkpoint_plan_inputs {
  config::checkpoint_profile profile;
  unsigned ranks = 0; // one per accelerator; 0: the profile's own job
  config::checkpoint_interval interval;
  double step_s = 0;          // seconds per training step, for an interval in steps
  double max_overhead = 0.05; // share of the wall time checkpoints may take, in (0, 1)
  bool async = false;
  std::uint64_t clients = 1;          // ranks spread evenly, in blocks of ranks / clients
  double write_bandwidth = 0;         // bytes/s the storage writes; 0: not given
  double read_bandwidth = 0;          // bytes/s the storage reads, for the restore; 0: not given
  double client_link_bytes_per_s = 0; // one client's usable NIC rate; 0: not given
};

// The plan's write side (plan_document::checkpoint). Throws usage_error for an overhead outside (0,
// 1), an interval in steps without a step time, ranks that do not hold the profile's layout, or
// clients that do not divide the ranks.
checkpoint_plan_document checkpoint_plan(const checkpoint_plan_inputs& in);

} // namespace dlsize::analysis
