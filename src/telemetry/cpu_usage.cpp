#include "telemetry/cpu_usage.hpp"

#include <sched.h>
#include <sys/resource.h>

#include <algorithm>
#include <fstream>
#include <string>

#include "core/clock.hpp"
#include "telemetry/cgroups.hpp"
#include "telemetry/fact_files.hpp"

namespace dlsize::telemetry {

cpu_snapshot take_cpu_snapshot() {
  cpu_snapshot s;
  s.wall_s = now_s();
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  s.process_user_s =
      static_cast<double>(ru.ru_utime.tv_sec) + static_cast<double>(ru.ru_utime.tv_usec) * 1e-6;
  s.process_system_s =
      static_cast<double>(ru.ru_stime.tv_sec) + static_cast<double>(ru.ru_stime.tv_usec) * 1e-6;
  std::ifstream in("/proc/stat");
  std::string cpu;
  std::uint64_t v[10] = {};
  if (in >> cpu && cpu == "cpu") {
    for (auto& x : v)
      in >> x;
    // user nice system idle iowait irq softirq steal guest guest_nice; guest is inside user.
    const std::uint64_t idle = v[3] + v[4];
    const std::uint64_t total = v[0] + v[1] + v[2] + v[3] + v[4] + v[5] + v[6] + v[7];
    s.host_total = total;
    s.host_busy = total - idle;
  }
  return s;
}

cpu_usage cpu_between(const cpu_snapshot& a, const cpu_snapshot& b) {
  cpu_usage u;
  u.wall_s = b.wall_s - a.wall_s;
  u.process_user_s = b.process_user_s - a.process_user_s;
  u.process_system_s = b.process_system_s - a.process_system_s;
  if (u.wall_s > 0)
    u.process_utilization = (u.process_user_s + u.process_system_s) / u.wall_s;
  const auto total = b.host_total - a.host_total;
  if (total > 0)
    u.host_utilization =
        static_cast<double>(b.host_busy - a.host_busy) / static_cast<double>(total);
  return u;
}

double cpu_budget_cores() {
  cpu_set_t set;
  CPU_ZERO(&set);
  double cores = sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 0;
  const cgroup_facts cg =
      cgroup_limits_of(read_fact("/proc/self/cgroup").value_or(""), "/sys/fs/cgroup");
  if (cg.cpu_max_cores.has_value() && *cg.cpu_max_cores > 0)
    cores = cores > 0 ? std::min(cores, *cg.cpu_max_cores) : *cg.cpu_max_cores;
  return cores;
}

double budget_share_of(double utilization, double budget_cores) {
  return budget_cores > 0 ? utilization / budget_cores : 0;
}

} // namespace dlsize::telemetry
