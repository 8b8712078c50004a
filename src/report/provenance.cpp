#include "report/provenance.hpp"

#include <map>
#include <string>
#include <type_traits>
#include <vector>

#include <fmt/format.h>

#include "report/backend_identity.hpp"

namespace dlsize::report {
namespace {

using telemetry::host_facts;

// A fact as a warning shows it: "–" when absent or null.
template <class T> std::string text(const field<T>& f) {
  if (!f.has_value())
    return "–";
  if constexpr (std::is_same_v<T, std::string>)
    return *f;
  else
    return fmt::format("{}", *f);
}

// The cgroup's I/O limits as the report holds them (compact JSON), "–" when absent.
std::string io_max_text(const field<telemetry::cgroup_facts>& c) {
  if (!c.has_value() || !c->io_max)
    return "–";
  return io_limits_json(*c->io_max).dump();
}

// One fact of a host as a short text, so that hosts can be grouped by it and a warning can say
// what each group has.
struct host_fact {
  const char* name;
  std::string (*of)(const host_facts& host);
};

const std::vector<host_fact>& host_fact_list() {
  static const std::vector<host_fact> f = {
      {"OS",
       [](const host_facts& h) {
         const auto& os = h.provenance.os;
         return os.has_value() ? text(os->pretty_name) : std::string("–");
       }},
      {"the dataset's mount",
       [](const host_facts& h) {
         const auto& m = h.provenance.mount;
         return m.has_value() ? fmt::format("{} {} {}", text(m->source), text(m->fs_type),
                                            text(m->super_options))
                              : std::string("–");
       }},
      {"the dataset's device",
       [](const host_facts& h) {
         const auto& d = h.provenance.device;
         return d.has_value()
                    ? fmt::format("{} {} {}, scheduler {}, read_ahead_kb {}, max_sectors_kb {}",
                                  text(d->name), text(d->model), text(d->transport),
                                  text(d->scheduler), text(d->read_ahead_kb),
                                  text(d->max_sectors_kb))
                    : std::string("none");
       }},
      {"cgroup limits",
       [](const host_facts& h) {
         const auto& c = h.provenance.cgroup;
         return fmt::format("memory {}, io {}",
                            c.has_value() ? text(c->memory_max_bytes) : std::string("–"),
                            io_max_text(c));
       }},
      {"NUMA nodes",
       [](const host_facts& h) {
         return std::to_string(h.provenance.numa_nodes ? h.provenance.numa_nodes->size() : 0);
       }},
      {"MPI library", [](const host_facts& h) { return text(h.provenance.mpi_library); }},
      {"NCCL_*/UCX_* environment",
       [](const host_facts& h) {
         return nlohmann::json(h.provenance.environment.value_or({})).dump();
       }},
  };
  return f;
}

// "hosts differ in the dataset's mount: A on n1; B on n2, n3".
void warn_where_hosts_differ(const std::vector<host_facts>& hosts,
                             std::vector<std::string>& warnings) {
  for (const auto& f : host_fact_list()) {
    std::vector<std::string> order;
    std::map<std::string, std::vector<std::string>> on;
    for (const auto& h : hosts) {
      const std::string v = f.of(h);
      if (!on.count(v))
        order.push_back(v);
      on[v].push_back(h.hostname.value_or("?"));
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
std::vector<telemetry::io_limit> io_limits_of(const host_facts& host) {
  std::vector<telemetry::io_limit> out;
  const auto& p = host.provenance;
  if (!p.cgroup.has_value() || !p.cgroup->io_max)
    return out;
  for (const auto& e : *p.cgroup->io_max) {
    const std::string dev = e.device.value_or("");
    if ((p.mount.has_value() && text(p.mount->dev) == dev) ||
        (p.device.has_value() && text(p.device->dev) == dev))
      out.push_back(e);
  }
  return out;
}

} // namespace

void add_provenance(bench_report& report) {
  const auto* hosts =
      report.system.has_value() && report.system->hosts ? &*report.system->hosts : nullptr;
  if (hosts && !hosts->empty() && (*hosts)[0].provenance.os.present) {
    const auto& first = (*hosts)[0].provenance;
    report.system.value->os = first.os;
    if (!report.storage)
      report.storage.emplace();
    auto& storage = *report.storage;
    storage.mount = first.mount.present ? first.mount : field<telemetry::mount_facts>::null();
    storage.device =
        first.device.present ? first.device : field<telemetry::block_device_facts>::null();
    storage.io_limits = io_limits_of((*hosts)[0]);
    if (hosts->size() > 1) {
      auto warnings = report.warnings.value_or({});
      warn_where_hosts_differ(*hosts, warnings);
      report.warnings = warnings;
    }
  }
  report.backend = backend_of(report);
}

} // namespace dlsize::report
