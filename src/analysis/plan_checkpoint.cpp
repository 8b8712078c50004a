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

nlohmann::json checkpoint_plan(const checkpoint_plan_inputs& in) {
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
  std::uint64_t largest = 0;
  for (const auto& s : layout.shares)
    largest = std::max(largest, s.bytes());
  const double bytes = static_cast<double>(layout.bytes());
  const double interval_s = in.interval.seconds_at(in.step_s);
  const double allowed_s = allowed_seconds(interval_s, in.max_overhead, in.async);
  const std::uint64_t client_bytes = busiest_client_bytes(layout, in.clients);
  nlohmann::json j = {{"bytes", layout.bytes()},
                      {"ranks", ranks},
                      {"layout",
                       {{"tensor_parallel", layout.tensor_parallel},
                        {"pipeline_parallel", layout.pipeline_parallel},
                        {"data_parallel", layout.data_parallel},
                        {"zero_stage", in.profile.zero_stage}}},
                      {"largest_rank_bytes", largest},
                      {"clients", in.clients},
                      {"busiest_client_bytes", client_bytes},
                      {"interval", in.interval.text()},
                      {"interval_s", interval_s},
                      {"mode", in.async ? "async" : "sync"},
                      {"max_overhead", in.max_overhead},
                      {"allowed_s", allowed_s},
                      {"write_bytes_per_s", bytes / allowed_s},
                      {"rank_write_bytes_per_s", static_cast<double>(largest) / allowed_s},
                      {"client_write_bytes_per_s", static_cast<double>(client_bytes) / allowed_s},
                      {"estimate", in.profile.estimate},
                      {"source", in.profile.source}};
  if (in.client_link_bytes_per_s > 0) {
    // No storage makes a client write faster than its NIC: the checkpoint's floor.
    const double floor_s = static_cast<double>(client_bytes) / in.client_link_bytes_per_s;
    j["client_link_floor_s"] = floor_s;
    j["client_link_fits"] = floor_s <= allowed_s;
  }
  if (in.write_bandwidth > 0) {
    const double t = bytes / in.write_bandwidth;
    j["at_write_bandwidth"] = {{"bytes_per_s", in.write_bandwidth},
                               {"checkpoint_s", t},
                               {"overhead", in.async ? 0.0 : t / (interval_s + t)},
                               {"fits", t <= allowed_s}};
  }
  if (in.read_bandwidth > 0)
    j["restore"] = {{"bytes_per_s", in.read_bandwidth}, {"restore_s", bytes / in.read_bandwidth}};
  return j;
}

} // namespace dlsize::analysis
