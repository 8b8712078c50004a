#include "analysis/plan_checkpoint.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/error.hpp"

namespace dlsize::analysis {
namespace {

// The seconds a checkpoint may take every interval_s of training.
double allowed_seconds(double interval_s, double overhead, bool async) {
  return async ? interval_s : overhead * interval_s / (1 - overhead);
}

// Bytes the busiest client writes: ranks in blocks of ranks / clients.
std::uint64_t busiest_client_bytes(const config::checkpoint_layout& l, std::uint64_t clients) {
  const std::size_t per_client = l.shares.size() / clients;
  std::uint64_t most = 0;
  for (std::size_t c = 0; c < clients; ++c) {
    std::uint64_t bytes = 0;
    for (std::size_t r = c * per_client; r < (c + 1) * per_client; ++r)
      bytes += l.shares[r].bytes();
    most = std::max(most, bytes);
  }
  return most;
}

} // namespace

checkpoint_plan_document checkpoint_plan(const checkpoint_plan_inputs& in) {
  if (!(in.max_overhead > 0 && in.max_overhead < 1))
    throw usage_error(fmt::format("--max-overhead: {} is outside (0, 1). valid: a share of the "
                                  "training time such as 5% or 0.05",
                                  in.max_overhead));
  if (in.interval.in_steps() && !(in.step_s > 0))
    throw usage_error("--checkpoint-interval: an interval in steps needs the step time of an "
                      "accelerator preset. valid: a duration (30min), or a profile with a "
                      "dataset and --accelerator");
  const unsigned ranks = in.ranks ? in.ranks : in.profile.job_ranks();
  if (in.clients < 1 || ranks % in.clients != 0)
    throw usage_error(fmt::format("--clients: {} clients cannot share {} ranks evenly. valid: "
                                  "a divisor of {}",
                                  in.clients, ranks, ranks));
  const config::checkpoint_layout layout = config::checkpoint_shares(in.profile, ranks, {});
  checkpoint_plan_document c;
  c.bytes = layout.bytes();
  c.ranks = ranks;
  c.tensor_parallel = layout.tensor_parallel;
  c.pipeline_parallel = layout.pipeline_parallel;
  c.data_parallel = layout.data_parallel;
  c.zero_stage = in.profile.zero_stage;
  for (const auto& s : layout.shares)
    c.largest_rank_bytes = std::max(c.largest_rank_bytes, s.bytes());
  c.clients = in.clients;
  c.busiest_client_bytes = busiest_client_bytes(layout, in.clients);
  c.interval = in.interval.text();
  c.interval_s = in.interval.seconds_at(in.step_s);
  c.async = in.async;
  c.max_overhead = in.max_overhead;
  c.allowed_s = allowed_seconds(c.interval_s, in.max_overhead, in.async);
  const double bytes = static_cast<double>(c.bytes);
  c.write_bytes_per_s = bytes / c.allowed_s;
  c.rank_write_bytes_per_s = static_cast<double>(c.largest_rank_bytes) / c.allowed_s;
  c.client_write_bytes_per_s = static_cast<double>(c.busiest_client_bytes) / c.allowed_s;
  c.estimate = in.profile.estimate;
  c.source = in.profile.source;
  if (in.client_link_bytes_per_s > 0) {
    // No storage makes a client write faster than its NIC: the checkpoint's floor.
    const double floor_s = static_cast<double>(c.busiest_client_bytes) / in.client_link_bytes_per_s;
    c.link = checkpoint_plan_document::client_link{floor_s, floor_s <= c.allowed_s};
  }
  if (in.write_bandwidth > 0) {
    const double t = bytes / in.write_bandwidth;
    c.at_write = checkpoint_plan_document::at_write_bandwidth{
        in.write_bandwidth, t, in.async ? 0.0 : t / (c.interval_s + t), t <= c.allowed_s};
  }
  if (in.read_bandwidth > 0)
    c.restore =
        checkpoint_plan_document::restore_time{in.read_bandwidth, bytes / in.read_bandwidth};
  return c;
}

} // namespace dlsize::analysis
