#include "report/backend_identity.hpp"

#include <fmt/format.h>

#include "report/bench_report.hpp"

namespace dlsize::report {
namespace {

std::string configured_label(const bench_report& r) {
  const nlohmann::json label = r.option("label");
  return label.is_string() ? label.get<std::string>() : std::string();
}

std::string given_label(const bench_report& r) {
  if (r.backend && r.backend->label.has_value() && !r.backend->label->empty() &&
      r.backend->label_given.value_or(false))
    return *r.backend->label;
  return configured_label(r);
}

std::string device_text(const storage_section& storage) {
  if (!storage.device.has_value())
    return "";
  const std::string name = storage.device->name.value_or(""),
                    model = storage.device->model.value_or("");
  return model.empty() ? name : fmt::format("{} ({})", name, model);
}

// One named field of an identity, for telling apart identities of one name.
struct identity_field {
  const char* name;
  std::string (*get)(const backend_identity&);
};

const std::vector<identity_field>& fields() {
  static const std::vector<identity_field> f = {
      {"fs", [](const backend_identity& i) { return i.fs_type; }},
      {"source", [](const backend_identity& i) { return i.mount_source; }},
      {"device", [](const backend_identity& i) { return i.device; }},
      {"io limits", [](const backend_identity& i) { return i.io_limits_text; }},
      {"cache", [](const backend_identity& i) { return i.cache_mode; }},
      {"object store", [](const backend_identity& i) { return i.object_store; }},
      {"server", [](const backend_identity& i) { return i.server; }},
  };
  return f;
}

} // namespace

std::string backend_identity::key() const {
  std::string k =
      fmt::format("label={};fs={};source={};device={};io_limits={};max_read_rate={};cache={}",
                  label, fs_type, mount_source, device, io_limits, max_read_rate, cache_mode);
  if (!object_store.empty())
    k += fmt::format(";s3=[{}];server={}", object_store, server);
  return k;
}

std::string backend_identity::display_name() const {
  if (max_read_rate > 0)
    return fmt::format("{}, capped at {:.1f} MB/s", label, max_read_rate / 1e6);
  return label;
}

std::string default_label(const bench_report& r) {
  const auto& d = r.dataset ? *r.dataset : dataset_section{};
  return fmt::format("{} ({})", d.path.value_or("?"), d.fs_type.value_or("?"));
}

backend_identity backend_identity_of(const bench_report& r) {
  backend_identity id;
  const dataset_section dataset = r.dataset.value_or(dataset_section{});
  const storage_section storage = r.storage.value_or(storage_section{});
  const io_section io = r.io.value_or(io_section{});
  id.label = given_label(r);
  if (id.label.empty())
    id.label = default_label(r);
  id.fs_type = dataset.fs_type.value_or("");
  id.mount_source = storage.mount.has_value() ? storage.mount->source.value_or("") : "";
  if (id.mount_source.empty())
    id.mount_source = dataset.device.value_or("");
  id.device = device_text(storage);
  if (storage.io_limits && !storage.io_limits->empty()) {
    id.io_limits = io_limits_json(*storage.io_limits).dump();
    id.io_limits_text = io_limits_text(*storage.io_limits);
  }
  id.max_read_rate = io.max_read_rate.value_or(0);
  id.cache_mode = io.cache_mode.value_or("direct");
  if (storage.s3) {
    const s3_section& s = *storage.s3;
    std::string endpoints;
    for (const auto& e : s.endpoints.value_or({}))
      endpoints += (endpoints.empty() ? "" : ",") + e;
    id.object_store =
        fmt::format("endpoints={};bucket={};region={};addressing={}", endpoints,
                    s.bucket.value_or(""), s.region.value_or(""), s.addressing.value_or(""));
    id.server = s.server.value_or("");
  }
  return id;
}

std::vector<std::string> distinct_names(const std::vector<backend_identity>& ids) {
  std::vector<std::string> names;
  for (const auto& id : ids)
    names.push_back(id.display_name());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    std::vector<std::size_t> same; // other identities with this name
    for (std::size_t j = 0; j < ids.size(); ++j)
      if (j != i && ids[j].display_name() == ids[i].display_name() && ids[j].key() != ids[i].key())
        same.push_back(j);
    if (same.empty())
      continue;
    for (const auto& f : fields()) {
      const std::string mine = f.get(ids[i]);
      bool differs = false;
      for (std::size_t j : same)
        differs = differs || f.get(ids[j]) != mine;
      if (differs)
        names[i] += fmt::format(", {} {}", f.name, mine.empty() ? "none" : mine);
    }
  }
  return names;
}

nlohmann::json io_limits_json(const std::vector<telemetry::io_limit>& limits) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& e : limits)
    rows.push_back(section_to_json(e));
  return rows;
}

std::string io_limits_text(const std::vector<telemetry::io_limit>& limits) {
  struct kind {
    field<std::uint64_t> telemetry::io_limit::*value;
    const char* format; // {0}: the value in the unit, {1}: the device
    double unit;
  };
  static const kind kinds[] = {{&telemetry::io_limit::rbps, "read cap {0:g} MB/s on {1}", 1e6},
                               {&telemetry::io_limit::wbps, "write cap {0:g} MB/s on {1}", 1e6},
                               {&telemetry::io_limit::riops, "{0:g} read IOPS on {1}", 1},
                               {&telemetry::io_limit::wiops, "{0:g} write IOPS on {1}", 1}};
  std::string out;
  for (const auto& e : limits) {
    const std::string dev = e.device.value_or("");
    for (const auto& k : kinds) {
      const auto& v = e.*k.value;
      if (!v.has_value())
        continue;
      out += (out.empty() ? "" : ", ") + fmt::format(fmt::runtime(k.format),
                                                     static_cast<double>(*v) / k.unit,
                                                     dev.empty() ? "?" : dev);
    }
  }
  return out;
}

backend_section backend_of(const bench_report& r) {
  const backend_identity id = backend_identity_of(r);
  backend_section b;
  b.label = id.label;
  b.label_given = !configured_label(r).empty();
  b.identity = id.key();
  return b;
}

} // namespace dlsize::report
