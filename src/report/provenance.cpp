#include "report/provenance.hpp"

#include <map>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "report/backend_identity.hpp"

namespace dlsize::report {
namespace {

std::string text(const nlohmann::json& j, const char* key) {
  const auto it = j.is_object() ? j.find(key) : j.end();
  if (!j.is_object() || it == j.end() || it->is_null())
    return "–";
  return it->is_string() ? it->get<std::string>() : it->dump();
}

// One fact of a host as a short text, so that hosts can be grouped by it and a warning can say
// what each group has.
struct host_fact {
  const char* name;
  std::string (*of)(const nlohmann::json& host);
};

const std::vector<host_fact>& host_facts() {
  static const std::vector<host_fact> f = {
      {"OS",
       [](const nlohmann::json& h) {
         return text(h.value("os", nlohmann::json()), "pretty_name");
       }},
      {"the dataset's mount",
       [](const nlohmann::json& h) {
         const auto m = h.value("mount", nlohmann::json());
         return m.is_object() ? fmt::format("{} {} {}", text(m, "source"), text(m, "fs_type"),
                                            text(m, "super_options"))
                              : std::string("–");
       }},
      {"the dataset's device",
       [](const nlohmann::json& h) {
         const auto d = h.value("device", nlohmann::json());
         return d.is_object()
                    ? fmt::format("{} {} {}, scheduler {}, read_ahead_kb {}, max_sectors_kb {}",
                                  text(d, "name"), text(d, "model"), text(d, "transport"),
                                  text(d, "scheduler"), text(d, "read_ahead_kb"),
                                  text(d, "max_sectors_kb"))
                    : std::string("none");
       }},
      {"cgroup limits",
       [](const nlohmann::json& h) {
         const auto c = h.value("cgroup", nlohmann::json());
         return fmt::format("memory {}, io {}", text(c, "memory_max_bytes"), text(c, "io_max"));
       }},
      {"NUMA nodes",
       [](const nlohmann::json& h) {
         return std::to_string(h.value("numa_nodes", nlohmann::json::array()).size());
       }},
      {"MPI library", [](const nlohmann::json& h) { return text(h, "mpi_library"); }},
      {"NCCL_*/UCX_* environment",
       [](const nlohmann::json& h) {
         return h.value("environment", nlohmann::json::object()).dump();
       }},
  };
  return f;
}

// "hosts differ in the dataset's mount: A on n1; B on n2, n3".
void warn_where_hosts_differ(const nlohmann::json& hosts, nlohmann::json& warnings) {
  for (const auto& f : host_facts()) {
    std::vector<std::string> order;
    std::map<std::string, std::vector<std::string>> on;
    for (const auto& h : hosts) {
      const std::string v = f.of(h);
      if (!on.count(v))
        order.push_back(v);
      on[v].push_back(h.value("hostname", "?"));
    }
    if (order.size() < 2)
      continue;
    std::vector<std::string> parts;
    for (const auto& v : order)
      parts.push_back(fmt::format("{} on {}", v, fmt::join(on[v], ", ")));
    warnings.push_back(fmt::format("hosts differ in {}: {}", f.name, fmt::join(parts, "; ")));
  }
}

// The I/O limits of the cgroup that apply to the dataset's device (its disk or the partition).
nlohmann::json io_limits_of(const nlohmann::json& host) {
  nlohmann::json out = nlohmann::json::array();
  const auto cg = host.value("cgroup", nlohmann::json::object());
  const auto mount = host.value("mount", nlohmann::json());
  const auto device = host.value("device", nlohmann::json());
  for (const auto& e : cg.value("io_max", nlohmann::json::array())) {
    const std::string dev = e.value("device", "");
    if ((mount.is_object() && text(mount, "dev") == dev) ||
        (device.is_object() && text(device, "dev") == dev))
      out.push_back(e);
  }
  return out;
}

} // namespace

void add_provenance(nlohmann::json& report) {
  const auto hosts =
      report.value("system", nlohmann::json::object()).value("hosts", nlohmann::json::array());
  if (!hosts.empty() && hosts[0].contains("os")) {
    const auto& first = hosts[0];
    report["system"]["os"] = first["os"];
    auto& storage = report["storage"];
    storage["mount"] = first.value("mount", nlohmann::json());
    storage["device"] = first.value("device", nlohmann::json());
    storage["io_limits"] = io_limits_of(first);
    if (hosts.size() > 1)
      warn_where_hosts_differ(hosts, report["warnings"]);
  }
  report["backend"] = backend_json(report);
}

void add_provenance(bench_report& report) {
  nlohmann::json j = report.to_json();
  add_provenance(j);
  report = bench_report::from_json(j);
}

} // namespace dlsize::report
