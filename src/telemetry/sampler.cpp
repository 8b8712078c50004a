#include "telemetry/sampler.hpp"

#include <algorithm>

namespace dlsize::telemetry {

sampler::sampler(const sysinfo::mount_info& mount, const nvml& gpus)
    : m_storage(mount), m_gpus(gpus) {
  m_storage0 = m_last_storage = m_storage.read_bytes();
  m_last_busy_ms = m_storage.busy_ms();
  m_last_cpu = take_cpu_snapshot();
}

sampler::sample sampler::point() {
  const auto cpu = take_cpu_snapshot();
  const auto u = cpu_between(m_last_cpu, cpu);
  sample p;
  p.cpu_process = u.process_utilization;
  p.cpu_host = u.host_utilization;
  if (m_storage.available()) {
    const auto sb = m_storage.read_bytes();
    p.storage_read_bytes_per_s =
        u.wall_s > 0 ? static_cast<double>(sb - m_last_storage) / u.wall_s : 0.0;
    m_last_storage = sb;
  }
  if (const auto busy = m_storage.busy_ms(); busy && m_last_busy_ms && u.wall_s > 0) {
    p.device_busy = std::min(1.0, static_cast<double>(*busy - *m_last_busy_ms) * 1e-3 / u.wall_s);
    m_last_busy_ms = busy;
  }
  p.memory = memory_now();
  if (m_gpus.available() && !m_gpus.devices().empty())
    p.gpus = m_gpus.sample();
  m_last_cpu = cpu;
  return p;
}

} // namespace dlsize::telemetry
