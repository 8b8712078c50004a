#include "config/checkpoint_rules.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "config/bench_rules.hpp"
#include "config/label.hpp"
#include "core/error.hpp"
#include "core/units.hpp"

namespace dlsize::config {
namespace {

void check_counts(const checkpoint_request& r) {
  if (r.writes == 0 && r.reads == 0)
    throw usage_error("--writes and --reads: both 0, nothing to do. valid: --writes N, --reads N "
                      "or both (default 10 each)");
  if (r.files_per_rank < 1 || r.files_per_rank > 4096)
    throw usage_error(fmt::format("--files-per-rank: {} is outside 1 to 4096", r.files_per_rank));
  const std::uint64_t kept = r.keep_last ? std::min(r.writes, r.keep_last) : r.writes;
  if (r.writes > 0 && r.reads > kept)
    throw usage_error(fmt::format(
        "--reads: {} asked, but this run keeps {} checkpoints{}. valid: --reads {} or fewer",
        r.reads, kept, r.keep_last ? " (--keep-last)" : " (--writes)", kept));
  for (const auto& [name, p] : {std::pair{"--dedupe-percent", r.dedupe_percent},
                                std::pair{"--compress-percent", r.compress_percent}})
    if (p > 100)
      throw usage_error(fmt::format("{}: {} is outside 0 to 100 (percent)", name, p));
}

} // namespace

checkpoint_values check_checkpoint_request(const checkpoint_request& r) {
  if (r.workload.empty())
    throw usage_error("--workload: required (a profile with a checkpoint block, such as "
                      "llama3-8b)");
  if (r.dir.empty())
    throw usage_error("--dir: required (a new or empty folder for the checkpoints, or with "
                      "--writes 0 one that dlsize checkpoint --keep wrote)");
  check_counts(r);
  if (r.has("--label"))
    check_label(r.label, "--label");
  checkpoint_values v;
  v.request_size = static_cast<std::uint32_t>(
      std::min<std::uint64_t>(units::parse_size(r.request_size, "--request-size"), UINT32_MAX));
  v.time_limit_s = time_limit_of(r.time_limit);
  v.stall_timeout_s = stall_timeout_of(r.stall_timeout);
  return v;
}

} // namespace dlsize::config
