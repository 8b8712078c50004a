#pragma once
// Facts about this host that a report needs to be trusted: CPUs, RAM, kernel, file systems.
#include <cstdint>
#include <string>

namespace dlsize::sysinfo {

std::uint64_t ram_bytes(); // MemTotal from /proc/meminfo
unsigned online_cpus();
// Bytes the calling user may still write on the file system that holds path (statvfs f_bavail
// × f_frsize; root's reserve is left out), asked of the nearest folder of path that exists.
// UINT64_MAX when statvfs fails (unknown). Quotas and NFS servers may still refuse less.
std::uint64_t available_bytes(const std::string& path);
std::string hostname();
std::string kernel_release();
std::string cpu_model();

// File system holding path: type (ext4, nfs4, xfs, ...), mount point and source device, from
// /proc/self/mountinfo (the longest mount point that prefixes the resolved path).
struct mount_info {
  std::string fs_type;
  std::string mount_point;
  std::string source;
  std::string options;       // per-mount options (rw,relatime)
  std::string super_options; // the file system's own (NFS: vers, rsize, proto, nconnect)
  unsigned major = 0;
  unsigned minor = 0;
};
mount_info mount_of(const std::string& path);
// The same over mountinfo text for an already resolved path (fixtures, another root).
mount_info mount_in(const std::string& mountinfo, const std::string& resolved_path);

} // namespace dlsize::sysinfo
