#pragma once
// Memory and I/O limits a cgroup puts on this process (cgroup v2: memory.max, io.max; v1:
// memory.limit_in_bytes, blkio.throttle.*), found through /proc/self/cgroup. A limit changes
// what the storage seems to deliver: an io.max rbps is a backend of its own, and a memory limit
// shrinks the page cache a buffered run sees.
#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "telemetry/host_facts.hpp"

namespace dlsize::telemetry {

// What /proc/self/cgroup says: the v2 path ("0::PATH"; empty: none) and each v1 controller's
// path ("memory" -> "/process_api/abc"; named hierarchies such as name=systemd are left out).
struct cgroup_membership {
  std::string v2_path;
  std::map<std::string, std::string> v1_paths;
};
cgroup_membership parse_proc_self_cgroup(std::string_view proc_self_cgroup);

// Where this process's memory cgroup is mounted, found through /proc/self/cgroup and
// /proc/self/mountinfo: the v1 memory hierarchy when one holds the controller, else the v2
// one (whose cgroup.controllers must still list memory: the caller checks). dir is the
// process's cgroup directory (mount point + path below the mount's root).
struct memory_cgroup_location {
  int version = 0;                // 1 or 2; 0: none found
  std::string cgroup_path;        // as /proc/self/cgroup gives it
  std::filesystem::path dir;      // empty when none was found
  std::vector<std::string> tried; // what was looked for, for the error when none is found
};
memory_cgroup_location locate_memory_cgroup(std::string_view proc_self_cgroup,
                                            std::string_view mountinfo);

// The limits along the process's cgroup path under CGROUP_ROOT (normally /sys/fs/cgroup), the
// lowest of each over the path's ancestors (cgroup_facts: the version, 1, 2 or null; the path;
// memory_max_bytes; io_max, one row per device). proc_self_cgroup is the text of
// /proc/self/cgroup.
cgroup_facts cgroup_limits_of(std::string_view proc_self_cgroup,
                              const std::filesystem::path& cgroup_root);

} // namespace dlsize::telemetry
