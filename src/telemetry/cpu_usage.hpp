#pragma once
// CPU utilization of this process and of the host between two snapshots, from getrusage and
// /proc/stat. Process utilization is CPU seconds / wall seconds (may exceed 1 with threads);
// host utilization is busy / total jiffies across all CPUs (0..1).
#include <cstdint>

namespace dlsize::telemetry {

struct cpu_snapshot {
  double wall_s = 0;
  double process_user_s = 0;
  double process_system_s = 0;
  std::uint64_t host_busy = 0;
  std::uint64_t host_total = 0;
};

cpu_snapshot take_cpu_snapshot();

struct cpu_usage {
  double wall_s = 0;
  double process_user_s = 0;
  double process_system_s = 0;
  double process_utilization = 0; // CPU s / wall s
  double host_utilization = 0;    // 0..1
  // The cores the process may use (cpu_budget_cores) and its utilization ÷ them; 0: unknown.
  double budget_cores = 0, budget_share = 0;
};

// Between two snapshots (the budget left unknown: the caller reads it once, at the end).
cpu_usage cpu_between(const cpu_snapshot& a, const cpu_snapshot& b);

// The cores this process may run on: the CPUs of its affinity mask, capped by its cgroup's CPU
// quota (cgroup v1 cpu.cfs_quota_us ÷ cpu.cfs_period_us, v2 cpu.max); 0 when neither is known.
double cpu_budget_cores();

// utilization ÷ budget, 0 where the budget is unknown.
double budget_share_of(double utilization, double budget_cores);

} // namespace dlsize::telemetry
