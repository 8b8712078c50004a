#pragma once
// Bytes the storage under a mount really delivered, from the kernel's counters: the block
// device's /proc/diskstats line, or an NFS mount's /proc/self/mountstats "bytes:" line
// (server read bytes). Compared with the bytes a run consumed, they give the cache hit ratio
// h = 1 - storage bytes / consumed bytes. Device counters include other processes' I/O.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "core/sysinfo.hpp"

#include "core/field.hpp"

namespace dlsize::telemetry {

// Sectors read (512 bytes each) of device major:minor in diskstats text; nullopt if absent.
std::optional<std::uint64_t> diskstats_read_bytes(std::string_view diskstats, unsigned major,
                                                  unsigned minor, std::string* name = nullptr);
// Milliseconds the device major:minor was busy (diskstats io_ticks); nullopt if absent.
std::optional<std::uint64_t> diskstats_busy_ms(std::string_view diskstats, unsigned major,
                                               unsigned minor);
// Server read bytes of the NFS mount at mount_point in mountstats text; nullopt if absent.
std::optional<std::uint64_t> nfs_server_read_bytes(std::string_view mountstats,
                                                   std::string_view mount_point);
// A /proc/meminfo field in bytes ("Cached", "MemAvailable"); nullopt if absent.
std::optional<std::uint64_t> meminfo_bytes(std::string_view meminfo, std::string_view key);

// Reads the counter that fits a mount: NFS mountstats for nfs/nfs4, diskstats for a block
// device, none otherwise (overlay, tmpfs, FUSE).
class storage_counter {
public:
  explicit storage_counter(sysinfo::mount_info mount);
  bool available() const { return !m_source.empty(); }
  // "diskstats vda", "nfs mountstats /mnt/data", or "" when no counter fits.
  const std::string& source() const { return m_source; }
  std::uint64_t read_bytes() const;
  // The block device's busy time (io_ticks); nullopt for NFS and mounts without a device.
  std::optional<std::uint64_t> busy_ms() const;

private:
  sysinfo::mount_info m_mount;
  std::string m_source;
  bool m_nfs = false;
};

// Page cache, available and free memory now (/proc/meminfo); null where it has no such line. The
// report records it as storage.memory_start and memory_end (report/bench_report_json.cpp).
struct memory_figures {
  field<std::uint64_t> page_cache_bytes, available_bytes, free_bytes;
  nlohmann::json extra = nlohmann::json::object();
};
memory_figures memory_now();

} // namespace dlsize::telemetry
