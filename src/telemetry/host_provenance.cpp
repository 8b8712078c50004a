#include "telemetry/host_provenance.hpp"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

#include "core/sysinfo.hpp"
#include "dlsize/build_config.hpp"
#include "telemetry/block_device.hpp"
#include "telemetry/cgroups.hpp"
#include "telemetry/fact_files.hpp"
#include "telemetry/mounts.hpp"
#include "telemetry/os_release.hpp"

extern char** environ; // NOLINT: POSIX declares it nowhere else

namespace dlsize::telemetry {
namespace fs = std::filesystem;

std::vector<numa_node> numa_of(const fs::path& sys) {
  std::vector<std::pair<unsigned long, fs::path>> nodes;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(sys / "devices/system/node", ec)) {
    const std::string n = e.path().filename().string();
    if (n.rfind("node", 0) == 0 && n.size() > 4 && std::all_of(n.begin() + 4, n.end(), ::isdigit))
      nodes.emplace_back(std::stoul(n.substr(4)), e.path());
  }
  std::sort(nodes.begin(), nodes.end());
  std::vector<numa_node> out;
  for (const auto& [id, dir] : nodes) {
    // "Node 0 MemTotal:       16384000 kB"
    numa_node node;
    node.node = std::uint64_t{id};
    node.cpus = first_line_of(dir / "cpulist").value_or("");
    node.memory_bytes = field<std::uint64_t>::null();
    const std::string meminfo = read_fact(dir / "meminfo").value_or(""); // the lines view it
    for (const auto line : lines_of(meminfo)) {
      const auto at = line.find("MemTotal:");
      if (at != std::string_view::npos) {
        const std::string rest(line.substr(at + 9));
        node.memory_bytes = std::uint64_t{std::stoull(rest) * 1024};
      }
    }
    out.push_back(node);
  }
  return out;
}

std::map<std::string, std::string> fabric_environment(char** environment) {
  std::map<std::string, std::string> out;
  for (char** e = environment; e && *e; ++e) {
    const std::string kv(*e);
    const auto eq = kv.find('=');
    if (eq != std::string::npos && (kv.rfind("NCCL_", 0) == 0 || kv.rfind("UCX_", 0) == 0))
      out[kv.substr(0, eq)] = kv.substr(eq + 1);
  }
  return out;
}

host_provenance_facts host_provenance(const fs::path& dataset, const fact_roots& roots) {
  std::error_code ec;
  std::string resolved = fs::weakly_canonical(dataset, ec).string();
  if (ec)
    resolved = dataset.string();
  const sysinfo::mount_info mount = mount_under(roots.root, resolved);
  host_provenance_facts p;
  p.os = os_of(roots.root);
  p.mount = mount.mount_point.empty() ? field<mount_facts>::null() : mount_facts_of(mount);
  p.device = field<block_device_facts>::of(block_device_of(roots.sys, mount.major, mount.minor));
  p.numa_nodes = numa_of(roots.sys);
  p.mpi_library =
      DLSIZE_HAVE_MPI ? field<std::string>(DLSIZE_MPI_VERSION) : field<std::string>::null();
  p.environment = fabric_environment(roots.environment ? roots.environment : environ);
  p.cgroup =
      cgroup_limits_of(read_fact(roots.root / "proc/self/cgroup").value_or(""), roots.cgroup);
  return p;
}

std::vector<nic_facts> nics_of(const fs::path& sys) {
  std::vector<nic_facts> out;
  std::error_code ec;
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(sys / "class/net", ec))
    names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  for (const auto& n : names) {
    if (n == "lo")
      continue;
    const fs::path dir = sys / "class/net" / n;
    nic_facts nic;
    nic.name = n;
    nic.state = first_line_of(dir / "operstate").value_or("");
    // speed is in Mb/s; virtual NICs report -1 or nothing.
    const auto speed = first_line_of(dir / "speed").value_or("");
    char* end = nullptr;
    const long mbps = std::strtol(speed.c_str(), &end, 10);
    nic.speed_bits_per_s = !speed.empty() && end != speed.c_str() && mbps > 0
                               ? field<double>(static_cast<double>(mbps) * 1e6)
                               : field<double>::null();
    if (const auto mtu = number_in(dir / "mtu"))
      nic.mtu = *mtu;
    out.push_back(nic);
  }
  return out;
}

host_facts this_host(std::optional<host_provenance_facts> provenance, const fact_roots& roots) {
  host_facts h;
  h.hostname = sysinfo::hostname();
  h.cpus = std::uint64_t{sysinfo::online_cpus()};
  h.cpu_model = sysinfo::cpu_model();
  h.ram_bytes = sysinfo::ram_bytes();
  h.kernel = sysinfo::kernel_release();
  h.nics = nics_of(roots.sys);
  if (provenance)
    h.provenance = std::move(*provenance);
  return h;
}

} // namespace dlsize::telemetry
