#pragma once
// Memory and I/O limits a cgroup puts on this process (cgroup v2: memory.max, io.max; v1:
// memory.limit_in_bytes, blkio.throttle.*), found through /proc/self/cgroup. A limit changes
// what the storage seems to deliver: an io.max rbps is a backend of its own, and a memory limit
// shrinks the page cache a buffered run sees.
#include <filesystem>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace dlsize::telemetry {

// The limits along the process's cgroup path under CGROUP_ROOT (normally /sys/fs/cgroup), the
// lowest of each over the path's ancestors: {"version" (1, 2 or null), "path", "memory_max_bytes"
// (null: no limit), "io_max": [{"device" ("MAJ:MIN"), "rbps", "wbps", "riops", "wiops"}] (null:
// no limit of that kind; sorted by device)}. proc_self_cgroup is the text of
// /proc/self/cgroup.
nlohmann::json cgroup_limits_json(std::string_view proc_self_cgroup,
                                  const std::filesystem::path& cgroup_root);

} // namespace dlsize::telemetry
