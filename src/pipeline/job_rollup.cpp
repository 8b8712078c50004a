#include "pipeline/job_rollup.hpp"

#include <algorithm>

#include "pipeline/run_report.hpp"

namespace dlsize::pipeline {
namespace {

void add_rank(job_rollup& j, const rank_result& r, std::vector<io::reader_stats>& stats) {
  j.accelerators.insert(j.accelerators.end(), r.accelerators.begin(), r.accelerators.end());
  stats.push_back(r.io);
  if (r.s3) {
    if (!j.s3)
      j.s3.emplace();
    j.s3->merge(*r.s3);
  }
  j.sample_latency.merge(r.sample_latency);
  j.failed_samples += r.failed_samples;
  if (j.first_error.empty())
    j.first_error = r.first_error;
  j.samples += r.samples;
  j.steps_run += r.steps_run;
  j.steps_min = std::min(j.steps_min, r.steps_min);
  j.pre_samples += r.pre_samples;
  j.pre_bytes += r.pre_bytes;
  j.pre_cpu_ns += r.pre_cpu_ns;
  j.pre_passes += r.pre_passes;
  j.pre_digest ^= r.pre_digest;
  for (std::size_t e = 0; e < j.epochs.size() && e < r.epochs.size(); ++e)
    j.epochs[e].merge(r.epochs[e]);
  j.cpu.process_user_s += r.cpu.process_user_s;
  j.cpu.process_system_s += r.cpu.process_system_s;
  j.wall_s = std::max(j.wall_s, r.wall_s);
  j.stat_s = std::max(j.stat_s, r.stat_s);
  j.open_s = std::max(j.open_s, r.open_s);
  for (const auto& w : r.warnings) {
    const std::string text = w.get<std::string>();
    if (std::find(j.warnings.begin(), j.warnings.end(), text) == j.warnings.end())
      j.warnings.push_back(text);
  }
}

void add_hosts(job_rollup& j, const std::vector<rank_result>& ranks) {
  j.storage_everywhere = !ranks.empty();
  double host_cpu = 0;
  for (const auto& [node, idx] : ranks_by_node(ranks)) {
    host_rollup h;
    h.node = node;
    h.first = &ranks[idx.front()];
    for (std::size_t i : idx) {
      h.accelerators.insert(h.accelerators.end(), ranks[i].accelerators.begin(),
                            ranks[i].accelerators.end());
      h.ranks.push_back(ranks[i].rank);
      h.read_bytes += ranks[i].io.bytes;
      h.samples += ranks[i].samples;
    }
    j.storage_bytes += h.first->storage_bytes;
    j.storage_everywhere = j.storage_everywhere && h.first->storage_counter;
    host_cpu += h.first->cpu.host_utilization;
    j.hosts.push_back(std::move(h));
  }
  j.cpu.host_utilization = host_cpu / static_cast<double>(std::max<std::size_t>(1, j.hosts.size()));
}

} // namespace

std::map<int, std::vector<std::size_t>> ranks_by_node(const std::vector<rank_result>& ranks) {
  std::map<int, std::vector<std::size_t>> m;
  for (std::size_t i = 0; i < ranks.size(); ++i)
    m[ranks[i].node].push_back(i);
  return m;
}

double cpu_seconds(const telemetry::cpu_usage& u) {
  return u.process_user_s + u.process_system_s;
}

job_rollup roll_up(const std::vector<rank_result>& ranks, std::uint64_t epochs) {
  job_rollup j;
  j.epochs.resize(epoch_rows(epochs));
  j.steps_min = UINT64_MAX;
  std::vector<io::reader_stats> stats;
  for (const auto& r : ranks)
    add_rank(j, r, stats);
  if (j.steps_min == UINT64_MAX)
    j.steps_min = 0;
  j.io = merge_stats(stats);
  add_hosts(j, ranks);
  j.cpu.wall_s = j.wall_s;
  j.cpu.process_utilization = j.wall_s > 0 ? cpu_seconds(j.cpu) / j.wall_s : 0;
  // The budget of the rank nearest to spending it: a rank short of CPU holds its accelerators
  // back whatever the others have to spare.
  for (const auto& r : ranks)
    if (r.cpu.budget_cores > 0 && r.cpu.budget_share >= j.cpu.budget_share) {
      j.cpu.budget_cores = r.cpu.budget_cores;
      j.cpu.budget_share = r.cpu.budget_share;
    }
  return j;
}

} // namespace dlsize::pipeline
