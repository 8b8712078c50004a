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
};

cpu_usage cpu_between(const cpu_snapshot& a, const cpu_snapshot& b);

} // namespace dlsize::telemetry
