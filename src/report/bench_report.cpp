#include "report/bench_report.hpp"

#include <cmath>
#include <type_traits>

#include <fmt/format.h>

#include "core/error.hpp"

namespace dlsize::report {
namespace {

std::string key_path(const std::string& path, const char* key) {
  return path.empty() ? std::string(key) : path + "." + key;
}

[[noreturn]] void wrong_type(const std::string& key, const char* valid, const nlohmann::json& v) {
  std::string shown = v.dump();
  if (shown.size() > 40)
    shown = shown.substr(0, 37) + "...";
  throw usage_error(
      fmt::format("report: {} has the wrong type. value: {}; valid: {}", key, shown, valid));
}

template <class T> T convert(const nlohmann::json& v, const std::string& key) {
  if constexpr (std::is_same_v<T, double>) {
    if (!v.is_number())
      wrong_type(key, "a number", v);
    return v.get<double>();
  } else if constexpr (std::is_same_v<T, std::uint64_t>) {
    if (v.is_number_unsigned())
      return v.get<std::uint64_t>();
    // A count written as 2.0 (by hand, or by a tool that has only doubles) is still a count.
    const double d = v.is_number() ? v.get<double>() : -1;
    if (d < 0 || d != std::floor(d) || d >= 1.8e19)
      wrong_type(key, "a whole number >= 0", v);
    return static_cast<std::uint64_t>(d);
  } else if constexpr (std::is_same_v<T, bool>) {
    if (!v.is_boolean())
      wrong_type(key, "true or false", v);
    return v.get<bool>();
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (!v.is_string())
      wrong_type(key, "a string", v);
    return v.get<std::string>();
  } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
    if (!v.is_array())
      wrong_type(key, "an array of strings", v);
    for (const auto& e : v)
      if (!e.is_string())
        wrong_type(key, "an array of strings", v);
    return v.get<std::vector<std::string>>();
  } else if constexpr (std::is_same_v<T, run_status>) {
    if (v == "complete")
      return run_status::complete;
    if (v == "incomplete")
      return run_status::incomplete;
    wrong_type(key, "complete or incomplete", v);
  } else {
    static_assert(std::is_same_v<T, nlohmann::json>);
    if (!v.is_object())
      wrong_type(key, "an object", v);
    return v;
  }
}

template <class T> nlohmann::json to_value(const T& v) {
  if constexpr (std::is_same_v<T, run_status>)
    return to_string(v);
  else
    return nlohmann::json(v);
}

// Moves typed keys out of an object (whatever stays is the section's extra).
struct reader {
  nlohmann::json& obj;
  std::string path;
  template <class T> void operator()(const char* key, field<T>& f) {
    const auto it = obj.find(key);
    if (it == obj.end())
      return;
    f.present = true;
    if (!it->is_null())
      f.value = convert<T>(*it, key_path(path, key));
    obj.erase(it);
  }
  // A typed sub-object; a null one stays untyped (in extra), as written.
  template <class S> void section(const char* key, std::optional<S>& s);
  template <class S> void rows(const char* key, std::optional<std::vector<S>>& rows);
};

// Writes typed fields over a section's extra.
struct writer {
  nlohmann::json& obj;
  template <class T> void operator()(const char* key, const field<T>& f) {
    if (f.present)
      obj[key] = f.value ? to_value(*f.value) : nlohmann::json(nullptr);
  }
  template <class S> void section(const char* key, const std::optional<S>& s);
  template <class S> void rows(const char* key, const std::optional<std::vector<S>>& rows);
};

template <class S, class T>
concept section_of = std::is_same_v<std::remove_const_t<S>, T>;

// One list of keys per section, for reading and writing alike.
void visit(section_of<latency_summary> auto& s, auto& op) {
  op("count", s.count);
  op("mean_s", s.mean_s);
  op("p50_s", s.p50_s);
  op("p90_s", s.p90_s);
  op("p99_s", s.p99_s);
  op("p999_s", s.p999_s);
  op("max_s", s.max_s);
}

void visit(section_of<cpu_summary> auto& s, auto& op) {
  op("process", s.process);
  op("host", s.host);
}

void visit(section_of<accelerator_section> auto& s, auto& op) {
  op("type", s.type);
  op("batch_size", s.batch_size);
  op("compute_time_s", s.compute_time_s);
}

void visit(section_of<workload_section> auto& s, auto& op) {
  op("name", s.name);
  op("epochs", s.epochs);
  op("epochs_source", s.epochs_source);
  op("mean_sample_bytes", s.mean_sample_bytes);
  op.section("accelerator", s.accelerator);
}

void visit(section_of<dataset_section> auto& s, auto& op) {
  op("path", s.path);
  op("fs_type", s.fs_type);
  op("dataset_id", s.dataset_id);
  op("bytes", s.bytes);
  op("files", s.files);
  op("samples", s.samples);
  op("records_per_file", s.records_per_file);
  op("client_ram_bytes", s.client_ram_bytes);
  op("bytes_over_ram", s.bytes_over_ram);
}

void visit(section_of<topology_section> auto& s, auto& op) {
  op("ranks", s.ranks);
  op("nodes", s.nodes);
  op("accelerators", s.accelerators);
  op("accelerators_per_rank", s.accelerators_per_rank);
  op("ranks_per_node", s.ranks_per_node);
  op("communicator", s.communicator);
  op("declared", s.declared);
}

void visit(section_of<summary_section> auto& s, auto& op) {
  op("wall_s", s.wall_s);
  op("samples_per_s", s.samples_per_s);
  op("samples_per_s_per_accelerator", s.samples_per_s_per_accelerator);
  op("read_bytes_per_s", s.read_bytes_per_s);
  op("files_per_s", s.files_per_s);
  op("read_bytes", s.read_bytes);
  op("samples", s.samples);
  op("requests", s.requests);
  op("accelerator_utilization", s.accelerator_utilization);
  op("accelerator_utilization_min", s.accelerator_utilization_min);
  op("au_threshold", s.au_threshold);
  op("au_pass", s.au_pass);
  op("demand_bytes_per_s_per_accelerator", s.demand_bytes_per_s_per_accelerator);
  op("demand_bytes_per_s", s.demand_bytes_per_s);
  op("epochs", s.epochs);
  op("epochs_completed", s.epochs_completed);
  op("steps_per_epoch", s.steps_per_epoch);
  op("steps", s.steps);
  op("storage_au", s.storage_au);
  op("limited_by", s.limited_by);
  op.section("data_wait", s.data_wait);
  op.section("cpu_utilization", s.cpu_utilization);
  op("cpu_s_per_gib", s.cpu_s_per_gib);
  op("cpu_s_per_1000_samples", s.cpu_s_per_1000_samples);
}

void visit(section_of<io_section> auto& s, auto& op) {
  op("engine", s.engine);
  op("cache_mode", s.cache_mode);
  op("uncached_method", s.uncached_method);
  op("queue_depth", s.queue_depth);
  op("request_size", s.request_size);
  op("readers", s.readers);
  op("max_read_rate", s.max_read_rate);
  op.section("latency", s.latency);
  op.section("reader_time", s.reader_time);
}

void visit(section_of<reader_time_section> auto& s, auto& op) {
  op("busiest_cpu_share", s.busiest_cpu_share);
  op("queue_full_share", s.queue_full_share);
  op("completion_wait_share", s.completion_wait_share);
  op("mean_in_flight", s.mean_in_flight);
}

void visit(section_of<storage_section> auto& s, auto& op) {
  op("hit_ratio", s.hit_ratio);
  op("read_bytes_per_s", s.read_bytes_per_s);
}

void visit(section_of<verify_section> auto& s, auto& op) {
  op("records_checked", s.records_checked);
  op("mismatches", s.mismatches);
  op("content_digest", s.content_digest);
}

void visit(section_of<accelerator_row> auto& s, auto& op) {
  op("id", s.id);
  op("device", s.device);
}

void visit(section_of<bench_report> auto& r, auto& op) {
  op("command_line", r.command_line);
  op("config", r.config);
  op("status", r.status);
  op("reason", r.reason);
  op("run_id", r.run_id);
  op("warnings", r.warnings);
  op.section("workload", r.workload);
  op.section("dataset", r.dataset);
  op.section("topology", r.topology);
  op.section("summary", r.summary);
  op.section("io", r.io);
  op.section("storage", r.storage);
  op.section("verify", r.verify);
  op.rows("accelerators", r.accelerators);
}

template <class S> void reader::section(const char* key, std::optional<S>& s) {
  const auto it = obj.find(key);
  if (it == obj.end() || it->is_null())
    return;
  const std::string where = key_path(path, key);
  if (!it->is_object())
    wrong_type(where, "an object", *it);
  S sec;
  sec.extra = std::move(*it);
  obj.erase(it);
  reader sub{sec.extra, where};
  visit(sec, sub);
  s = std::move(sec);
}

template <class S> void reader::rows(const char* key, std::optional<std::vector<S>>& rows) {
  const auto it = obj.find(key);
  if (it == obj.end() || it->is_null())
    return;
  const std::string where = key_path(path, key);
  if (!it->is_array())
    wrong_type(where, "an array of objects", *it);
  std::vector<S> out;
  for (std::size_t i = 0; i < it->size(); ++i) {
    if (!(*it)[i].is_object())
      wrong_type(where, "an array of objects", *it);
    S row;
    row.extra = std::move((*it)[i]);
    reader sub{row.extra, fmt::format("{}[{}]", where, i)};
    visit(row, sub);
    out.push_back(std::move(row));
  }
  obj.erase(it);
  rows = std::move(out);
}

template <class S> void writer::section(const char* key, const std::optional<S>& s) {
  if (!s)
    return;
  nlohmann::json o = s->extra.is_object() ? s->extra : nlohmann::json::object();
  writer sub{o};
  visit(*s, sub);
  obj[key] = std::move(o);
}

template <class S> void writer::rows(const char* key, const std::optional<std::vector<S>>& rows) {
  if (!rows)
    return;
  nlohmann::json a = nlohmann::json::array();
  for (const auto& row : *rows) {
    nlohmann::json o = row.extra.is_object() ? row.extra : nlohmann::json::object();
    writer sub{o};
    visit(row, sub);
    a.push_back(std::move(o));
  }
  obj[key] = std::move(a);
}

} // namespace

bool is_bench_report(const nlohmann::json& j) {
  // Never throws: a schema or kind that is not a string is not a bench report.
  auto text = [&](const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  return j.is_object() && text("schema") == kReportSchema && text("kind") == "bench";
}

nlohmann::json bench_report::to_json() const {
  nlohmann::json j = extra.is_object() ? extra : nlohmann::json::object();
  j["schema"] = schema;
  j["kind"] = kind;
  writer w{j};
  visit(*this, w);
  return j;
}

bench_report bench_report::from_json(const nlohmann::json& j) {
  if (!is_bench_report(j))
    throw usage_error(fmt::format(
        "not a dlsize bench report. schema: {}; kind: {}; valid: schema {}, kind bench",
        j.is_object() ? j.value("schema", nlohmann::json("(none)")).dump() : "(not an object)",
        j.is_object() ? j.value("kind", nlohmann::json("(none)")).dump() : "(not an object)",
        kReportSchema));
  bench_report r;
  r.extra = j;
  r.extra.erase("schema");
  r.extra.erase("kind");
  reader rd{r.extra, ""};
  visit(r, rd);
  return r;
}

std::string bench_report::status_text() const {
  if (!status.has_value())
    return "?";
  return to_string(*status);
}

nlohmann::json bench_report::option(const std::string& name) const {
  if (!config.has_value())
    return nullptr;
  const auto it = config.value->find(name);
  return it == config.value->end() ? nlohmann::json(nullptr) : *it;
}

double bench_report::number(const field<double>& f) {
  return f.has_value() ? *f : std::nan("");
}

double bench_report::number(const field<std::uint64_t>& f) {
  return f.has_value() ? static_cast<double>(*f) : std::nan("");
}

} // namespace dlsize::report
