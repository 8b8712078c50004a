#include "telemetry/host_provenance.hpp"

#include <algorithm>
#include <string>
#include <vector>

#include "dlsize/build_config.hpp"
#include "telemetry/block_device.hpp"
#include "telemetry/cgroups.hpp"
#include "telemetry/fact_files.hpp"
#include "telemetry/mounts.hpp"
#include "telemetry/os_release.hpp"

extern char** environ; // NOLINT: POSIX declares it nowhere else

namespace dlsize::telemetry {
namespace fs = std::filesystem;

nlohmann::json numa_json(const fs::path& sys) {
  std::vector<std::pair<unsigned long, fs::path>> nodes;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(sys / "devices/system/node", ec)) {
    const std::string n = e.path().filename().string();
    if (n.rfind("node", 0) == 0 && n.size() > 4 && std::all_of(n.begin() + 4, n.end(), ::isdigit))
      nodes.emplace_back(std::stoul(n.substr(4)), e.path());
  }
  std::sort(nodes.begin(), nodes.end());
  nlohmann::json out = nlohmann::json::array();
  for (const auto& [id, dir] : nodes) {
    // "Node 0 MemTotal:       16384000 kB"
    nlohmann::json memory = nullptr;
    const std::string meminfo = read_fact(dir / "meminfo").value_or(""); // the lines view it
    for (const auto line : lines_of(meminfo)) {
      const auto at = line.find("MemTotal:");
      if (at != std::string_view::npos) {
        const std::string rest(line.substr(at + 9));
        memory = std::stoull(rest) * 1024;
      }
    }
    out.push_back({{"node", id},
                   {"cpus", first_line_of(dir / "cpulist").value_or("")},
                   {"memory_bytes", memory}});
  }
  return out;
}

nlohmann::json fabric_environment(char** environment) {
  nlohmann::json out = nlohmann::json::object();
  for (char** e = environment; e && *e; ++e) {
    const std::string kv(*e);
    const auto eq = kv.find('=');
    if (eq != std::string::npos && (kv.rfind("NCCL_", 0) == 0 || kv.rfind("UCX_", 0) == 0))
      out[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return out;
}

nlohmann::json host_provenance(const fs::path& dataset, const fact_roots& roots) {
  std::error_code ec;
  std::string resolved = fs::weakly_canonical(dataset, ec).string();
  if (ec)
    resolved = dataset.string();
  const sysinfo::mount_info mount = mount_under(roots.root, resolved);
  return {{"os", os_json(roots.root)},
          {"mount", mount.mount_point.empty() ? nlohmann::json(nullptr) : mount_json(mount)},
          {"device", block_device_json(roots.sys, mount.major, mount.minor)},
          {"numa_nodes", numa_json(roots.sys)},
          {"mpi_library",
           DLSIZE_HAVE_MPI ? nlohmann::json(DLSIZE_MPI_VERSION) : nlohmann::json(nullptr)},
          {"environment", fabric_environment(roots.environment ? roots.environment : environ)},
          {"cgroup", cgroup_limits_json(read_fact(roots.root / "proc/self/cgroup").value_or(""),
                                        roots.cgroup)}};
}

} // namespace dlsize::telemetry
