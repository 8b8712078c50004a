#include "report/backend_identity.hpp"

#include <fmt/format.h>

#include "report/bench_report.hpp"

namespace dlsize::report {
namespace {

const nlohmann::json& section(const nlohmann::json& r, const char* name) {
  static const nlohmann::json empty = nlohmann::json::object();
  const auto it = r.find(name);
  return it != r.end() && it->is_object() ? *it : empty;
}

std::string string_at(const nlohmann::json& obj, const char* key) {
  const auto it = obj.find(key);
  return it != obj.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string given_label(const nlohmann::json& r) {
  const std::string from_backend = string_at(section(r, "backend"), "label");
  if (!from_backend.empty() && section(r, "backend").value("label_given", false))
    return from_backend;
  return string_at(section(r, "config"), "label");
}

std::string device_text(const nlohmann::json& storage) {
  const auto it = storage.find("device");
  if (it == storage.end() || !it->is_object())
    return "";
  const std::string name = string_at(*it, "name"), model = string_at(*it, "model");
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

std::string default_label(const nlohmann::json& r) {
  const auto& d = section(r, "dataset");
  return fmt::format("{} ({})", d.value("path", "?"), d.value("fs_type", "?"));
}

backend_identity backend_identity_of(const nlohmann::json& r) {
  backend_identity id;
  const auto& dataset = section(r, "dataset");
  const auto& storage = section(r, "storage");
  const auto& io = section(r, "io");
  id.label = given_label(r);
  if (id.label.empty())
    id.label = default_label(r);
  id.fs_type = string_at(dataset, "fs_type");
  id.mount_source = string_at(section(storage, "mount"), "source");
  if (id.mount_source.empty())
    id.mount_source = string_at(dataset, "device");
  id.device = device_text(storage);
  const auto limits = storage.find("io_limits");
  if (limits != storage.end() && limits->is_array() && !limits->empty()) {
    id.io_limits = limits->dump();
    id.io_limits_text = io_limits_text(*limits);
  }
  const auto cap = io.find("max_read_rate");
  if (cap != io.end() && cap->is_number())
    id.max_read_rate = cap->get<double>();
  id.cache_mode = io.value("cache_mode", "direct");
  const auto s3 = storage.find("s3");
  if (s3 != storage.end() && s3->is_object()) {
    const s3_section s = s3_section_from_json(*s3);
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

std::string io_limits_text(const nlohmann::json& limits) {
  struct kind {
    const char* key;
    const char* format; // {0}: the value in the unit, {1}: the device
    double unit;
  };
  static const kind kinds[] = {{"rbps", "read cap {0:g} MB/s on {1}", 1e6},
                               {"wbps", "write cap {0:g} MB/s on {1}", 1e6},
                               {"riops", "{0:g} read IOPS on {1}", 1},
                               {"wiops", "{0:g} write IOPS on {1}", 1}};
  std::string out;
  if (!limits.is_array())
    return out;
  for (const auto& e : limits) {
    if (!e.is_object())
      continue;
    const std::string dev = string_at(e, "device");
    for (const auto& k : kinds) {
      const auto it = e.find(k.key);
      if (it == e.end() || !it->is_number())
        continue;
      out +=
          (out.empty() ? "" : ", ") +
          fmt::format(fmt::runtime(k.format), it->get<double>() / k.unit, dev.empty() ? "?" : dev);
    }
  }
  return out;
}

nlohmann::json backend_json(const nlohmann::json& r) {
  const backend_identity id = backend_identity_of(r);
  return {{"label", id.label},
          {"label_given", !string_at(section(r, "config"), "label").empty()},
          {"identity", id.key()}};
}

} // namespace dlsize::report
