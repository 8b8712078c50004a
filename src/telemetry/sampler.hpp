#pragma once
// The telemetry of a run, taken at each --sample-interval: host and process CPU utilization,
// the storage counter of the dataset's mount, page cache and available memory, and GPUs
// through NVML where a driver is there. One point per call, rates over the interval since the
// previous call.
#include <cstdint>
#include <optional>

#include <nlohmann/json.hpp>

#include "core/sysinfo.hpp"
#include "telemetry/cpu_usage.hpp"
#include "telemetry/nvml.hpp"
#include "telemetry/storage_counters.hpp"

namespace dlsize::telemetry {

class sampler {
public:
  sampler(const sysinfo::mount_info& mount, const nvml& gpus);
  // One point: CPU and storage over the time since the previous point (or construction), memory
  // and GPUs now.
  struct sample {
    double cpu_process = 0, cpu_host = 0;
    std::optional<double> storage_read_bytes_per_s; // none: no counter for the mount
    std::optional<double> device_busy; // share of the interval the block device had I/O in flight
    memory_figures memory;
    std::optional<std::vector<gpu_sample>> gpus; // NVML's, one per GPU; none: no GPU seen
  };
  sample point();
  const storage_counter& storage() const { return m_storage; }
  // Storage bytes since construction.
  std::uint64_t storage_bytes() const { return m_storage.read_bytes() - m_storage0; }

private:
  storage_counter m_storage;
  const nvml& m_gpus;
  std::uint64_t m_storage0 = 0, m_last_storage = 0;
  std::optional<std::uint64_t> m_last_busy_ms;
  cpu_snapshot m_last_cpu;
};

} // namespace dlsize::telemetry
