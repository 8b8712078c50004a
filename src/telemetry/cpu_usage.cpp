#include "telemetry/cpu_usage.hpp"

#include <sys/resource.h>

#include <fstream>
#include <string>

#include "core/clock.hpp"

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

} // namespace dlsize::telemetry
