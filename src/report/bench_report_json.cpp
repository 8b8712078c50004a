#include "report/bench_report.hpp"

#include <cmath>
#include <type_traits>

#include <fmt/format.h>

#include "core/error.hpp"
#include "report/latency_keys.hpp"

namespace dlsize::report {
namespace {

// A number's range, beside its type in the field lists below: the figures size and compare
// compute with are never negative (rates, sizes, times), and utilizations, thresholds and hit
// ratios are shares. Counts (std::uint64_t) are whole numbers >= 0 whatever the bound.
enum class bound { none, nonneg, share };

// What a key the struct does not type must hold, where readers open it (it rides in extra).
enum class json_shape { object, array, string };

// The path of a key below an object at JSON pointer `path` ("" for the report itself).
std::string key_path(const std::string& path, const std::string& key) {
  return path + "/" + key;
}

const char* found_text(const nlohmann::json& v) {
  switch (v.type()) {
  case nlohmann::json::value_t::object:
    return "an object";
  case nlohmann::json::value_t::array:
    return "an array";
  case nlohmann::json::value_t::string:
    return "a string";
  case nlohmann::json::value_t::boolean:
    return "a boolean";
  case nlohmann::json::value_t::null:
    return "null";
  default:
    return "a number";
  }
}

// "FILE: /summary: is an array. valid: an object"
[[noreturn]] void wrong_type(const std::string& source, const std::string& key,
                             const nlohmann::json& v, const char* valid) {
  throw usage_error(fmt::format("{}: {}: is {}. valid: {}", source, key.empty() ? "/" : key,
                                found_text(v), valid));
}

// "FILE: /summary/read_bytes_per_s: -5 is out of range. valid: a number >= 0"
[[noreturn]] void out_of_range(const std::string& source, const std::string& key,
                               const nlohmann::json& v, const char* what, const char* valid) {
  std::string shown = v.is_number() ? fmt::format("{}", v.get<double>()) : v.dump();
  if (shown.size() > 40)
    shown = shown.substr(0, 37) + "...";
  throw usage_error(fmt::format("{}: {}: {} is {}. valid: {}", source, key, shown, what, valid));
}

// Where a value is, for the messages: the report's source (a file, or "report") and the key's
// JSON pointer.
struct place {
  const std::string& source;
  std::string key;
};

void check_bound(const place& at, const nlohmann::json& v, bound b) {
  const double d = v.get<double>();
  if (b == bound::nonneg && !(d >= 0))
    out_of_range(at.source, at.key, v, "out of range", "a number >= 0");
  if (b == bound::share && !(d >= 0 && d <= 1))
    out_of_range(at.source, at.key, v, "out of range", "a share from 0 to 1");
}

template <class T> T convert(const nlohmann::json& v, const place& at, bound b) {
  if constexpr (std::is_same_v<T, double>) {
    if (!v.is_number())
      wrong_type(at.source, at.key, v, "a number");
    check_bound(at, v, b);
    return v.get<double>();
  } else if constexpr (std::is_same_v<T, std::uint64_t>) {
    if (v.is_number_unsigned())
      return v.get<std::uint64_t>();
    if (!v.is_number())
      wrong_type(at.source, at.key, v, "a number");
    // A count written as 2.0 (by hand, or by a tool that has only doubles) is still a count.
    const double d = v.get<double>();
    if (d < 0 || d != std::floor(d) || d >= 1.8e19)
      out_of_range(at.source, at.key, v, "out of range", "a whole number >= 0");
    return static_cast<std::uint64_t>(d);
  } else if constexpr (std::is_same_v<T, count_or_number>) {
    if (!v.is_number())
      wrong_type(at.source, at.key, v, "a number");
    check_bound(at, v, b);
    count_or_number c;
    c.whole = v.is_number_unsigned() || (v.is_number_integer() && v.get<std::int64_t>() >= 0);
    if (c.whole)
      c.count = v.get<std::uint64_t>();
    else
      c.number = v.get<double>();
    return c;
  } else if constexpr (std::is_same_v<T, bool>) {
    if (!v.is_boolean())
      wrong_type(at.source, at.key, v, "true or false");
    return v.get<bool>();
  } else if constexpr (std::is_same_v<T, std::string>) {
    if (!v.is_string())
      wrong_type(at.source, at.key, v, "a string");
    return v.get<std::string>();
  } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
    if (!v.is_array())
      wrong_type(at.source, at.key, v, "an array of strings");
    for (std::size_t i = 0; i < v.size(); ++i)
      if (!v[i].is_string())
        wrong_type(at.source, fmt::format("{}/{}", at.key, i), v[i], "a string");
    return v.get<std::vector<std::string>>();
  } else if constexpr (std::is_same_v<T, std::vector<std::uint64_t>> ||
                       std::is_same_v<T, std::vector<double>>) {
    if (!v.is_array())
      wrong_type(at.source, at.key, v, "an array of numbers");
    T out;
    for (std::size_t i = 0; i < v.size(); ++i)
      out.push_back(convert<typename T::value_type>(
          v[i], place{at.source, fmt::format("{}/{}", at.key, i)}, b));
    return out;
  } else if constexpr (std::is_same_v<T, run_status>) {
    if (v == "complete")
      return run_status::complete;
    if (v == "incomplete")
      return run_status::incomplete;
    if (!v.is_string())
      wrong_type(at.source, at.key, v, "complete or incomplete");
    out_of_range(at.source, at.key, v, "not valid", "complete or incomplete");
  } else {
    static_assert(std::is_same_v<T, nlohmann::json>);
    if (!v.is_object())
      wrong_type(at.source, at.key, v, "an object");
    return v;
  }
}

// A struct of fields with its own extra (a section), held in a field: absent, null or an object.
template <class T>
concept typed_section = requires(const T& t) {
  t.extra;
};

template <class T> nlohmann::json to_value(const T& v) {
  if constexpr (std::is_same_v<T, run_status>)
    return to_string(v);
  else if constexpr (std::is_same_v<T, count_or_number>)
    return v.whole ? nlohmann::json(v.count) : nlohmann::json(v.number);
  else
    return nlohmann::json(v);
}

// Moves typed keys out of an object (whatever stays is the section's extra), checking each
// against the field lists: its type, its range, and the shape of the untyped keys readers open.
struct reader {
  nlohmann::json& obj;
  std::string path; // JSON pointer of obj
  const std::string& source;
  template <class T> void operator()(const char* key, field<T>& f, bound b = bound::none) {
    const auto it = obj.find(key);
    if (it == obj.end())
      return;
    f.present = true;
    // A figure not measured: null, or (in a report built in memory, before it is written) a NaN
    // or infinity, which the JSON text holds as null.
    if (it->is_null() || (it->is_number_float() && !std::isfinite(it->get<double>())))
      ;
    else if constexpr (typed_section<T>)
      f.value = nested<T>(*it, key_path(path, key));
    else
      f.value = convert<T>(*it, place{source, key_path(path, key)}, b);
    obj.erase(it);
  }
  template <class S> S nested(nlohmann::json& v, const std::string& where) const;
  // An untyped key (or a path of them, "system/hosts"), checked in place; absent or null (not
  // measured) is fine. A parent of the wrong type is named by its own entry, which comes first.
  void shape(const char* key, json_shape s) const {
    const nlohmann::json::json_pointer p("/" + std::string(key));
    if (!obj.contains(p) || obj.at(p).is_null())
      return;
    const nlohmann::json& v = obj.at(p);
    const std::string at = key_path(path, key);
    if (s == json_shape::object && !v.is_object())
      wrong_type(source, at, v, "an object");
    if (s == json_shape::array && !v.is_array())
      wrong_type(source, at, v, "an array");
    if (s == json_shape::string && !v.is_string())
      wrong_type(source, at, v, "a string");
  }
  template <class S> void section(const char* key, std::optional<S>& s);
  // A section a run writes as null when it has none (operator() reads it).
  template <class S> void section(const char* key, field<S>& s) { (*this)(key, s); }
  template <class S> void rows(const char* key, std::optional<std::vector<S>>& rows);
};

// Writes typed fields over a section's extra.
struct writer {
  nlohmann::json& obj;
  template <class T> void operator()(const char* key, const field<T>& f, bound = bound::none) {
    if (!f.present)
      return;
    if constexpr (typed_section<T>)
      obj[key] = f.value ? nested(*f.value) : nlohmann::json(nullptr);
    else
      obj[key] = f.value ? to_value(*f.value) : nlohmann::json(nullptr);
  }
  template <class S> static nlohmann::json nested(const S& s);
  void shape(const char*, json_shape) const {}
  template <class S> void section(const char* key, const std::optional<S>& s);
  template <class S> void section(const char* key, const field<S>& s) { (*this)(key, s); }
  template <class S> void rows(const char* key, const std::optional<std::vector<S>>& rows);
};

template <class S, class T>
concept section_of = std::is_same_v<std::remove_const_t<S>, T>;

// One list of keys per section, for reading and writing alike.
void visit(section_of<latency_summary> auto& s, auto& op) {
  latency_keys(s, op);
  op("histogram", s.histogram);
}

void visit(section_of<cpu_summary> auto& s, auto& op) {
  op("process", s.process);
  op("host", s.host);
  op("process_user_s", s.process_user_s);
  op("process_system_s", s.process_system_s);
}

void visit(section_of<accelerator_section> auto& s, auto& op) {
  op("type", s.type);
  op("origin", s.origin);
  op("source", s.source);
  op("batch_size", s.batch_size);
  op("compute_time_s", s.compute_time_s);
  op("compute_time_stdev_s", s.compute_time_stdev_s);
}

void visit(section_of<workload_section> auto& s, auto& op) {
  op("name", s.name);
  op("origin", s.origin);
  op("layout", s.layout);
  op("format", s.format);
  op("au_threshold", s.au_threshold, bound::share);
  op("epochs", s.epochs);
  op("epochs_source", s.epochs_source);
  op("mean_sample_bytes", s.mean_sample_bytes, bound::nonneg);
  op.section("accelerator", s.accelerator);
  op("model", s.model);
}

void visit(section_of<dataset_section> auto& s, auto& op) {
  op("path", s.path);
  op("fs_type", s.fs_type);
  op("mount_point", s.mount_point);
  op("device", s.device);
  op("dataset_id", s.dataset_id);
  op("bytes", s.bytes);
  op("files", s.files);
  op("samples", s.samples);
  op("records_per_file", s.records_per_file);
  op("client_ram_bytes", s.client_ram_bytes);
  op("bytes_over_ram", s.bytes_over_ram, bound::nonneg);
  op("index", s.index);
}

void visit(section_of<topology_section> auto& s, auto& op) {
  op("ranks", s.ranks);
  op("nodes", s.nodes);
  op("accelerators", s.accelerators);
  op("accelerators_per_rank", s.accelerators_per_rank);
  op("ranks_per_node", s.ranks_per_node);
  op("accelerators_per_node", s.accelerators_per_node);
  op("accelerator_kind", s.accelerator_kind);
  op("communicator", s.communicator);
  op("sync_steps", s.sync_steps);
  op("epoch_sync", s.epoch_sync);
  op("prefetch", s.prefetch);
  op("declared", s.declared);
  op("allreduce", s.allreduce);
}

void visit(section_of<declared_topology> auto& s, auto& op) {
  op("nodes", s.nodes);
  op("accelerators_per_node", s.accelerators_per_node);
  op("hosts", s.hosts);
}

void visit(section_of<limit_figures_section> auto& s, auto& op) {
  op("accelerator_utilization", s.accelerator_utilization);
  op("busiest_reader_cpu_share", s.busiest_reader_cpu_share);
  op("host_cpu_utilization", s.host_cpu_utilization);
  op("queue_full_share", s.queue_full_share);
  op("completion_wait_share", s.completion_wait_share);
  op("mean_in_flight", s.mean_in_flight);
  op("queue_depth", s.queue_depth);
  op("readers", s.readers);
  op("device_busy", s.device_busy);
  op("max_read_rate", s.max_read_rate);
  op("read_bytes_per_s", s.read_bytes_per_s);
}

void visit(section_of<limit_section> auto& s, auto& op) {
  op("verdict", s.verdict);
  op("synthetic", s.synthetic);
  op("reason", s.reason);
  op("advice", s.advice);
  op.section("figures", s.figures);
}

void visit(section_of<summary_section> auto& s, auto& op) {
  op("wall_s", s.wall_s, bound::nonneg);
  op("samples_per_s", s.samples_per_s, bound::nonneg);
  op("samples_per_s_per_accelerator", s.samples_per_s_per_accelerator, bound::nonneg);
  op("read_bytes_per_s", s.read_bytes_per_s, bound::nonneg);
  op("files_per_s", s.files_per_s);
  op("read_bytes", s.read_bytes);
  op("samples", s.samples);
  op("requests", s.requests);
  op("accelerator_utilization", s.accelerator_utilization, bound::share);
  op("accelerator_utilization_min", s.accelerator_utilization_min, bound::share);
  op("au_threshold", s.au_threshold, bound::share);
  op("accelerator_utilization_epoch_mean", s.accelerator_utilization_epoch_mean, bound::share);
  op("accelerator_utilization_excluding_checkpoints",
     s.accelerator_utilization_excluding_checkpoints, bound::share);
  op("au_pass", s.au_pass);
  op("demand_bytes_per_s_per_accelerator", s.demand_bytes_per_s_per_accelerator, bound::nonneg);
  op("demand_bytes_per_s", s.demand_bytes_per_s, bound::nonneg);
  op("epochs", s.epochs);
  op("epochs_completed", s.epochs_completed);
  op("steps_per_epoch", s.steps_per_epoch);
  op("steps", s.steps);
  op("steps_total", s.steps_total);
  op("storage_au", s.storage_au, bound::share);
  op("data_wait_s", s.data_wait_s, bound::nonneg);
  op("sync_wait_s", s.sync_wait_s, bound::nonneg);
  op("comm_s", s.comm_s, bound::nonneg);
  op("comm_time_fraction", s.comm_time_fraction, bound::share);
  op("limited_by", s.limited_by);
  op.section("data_wait", s.data_wait);
  op.section("cpu_utilization", s.cpu_utilization);
  op("cpu_s_per_gib", s.cpu_s_per_gib);
  op("cpu_s_per_1000_samples", s.cpu_s_per_1000_samples);
}

void visit(section_of<io_section> auto& s, auto& op) {
  op("engine", s.engine);
  op("engine_requested", s.engine_requested);
  op("cache_mode", s.cache_mode);
  op("uncached_method", s.uncached_method);
  op("queue_depth", s.queue_depth);
  op("request_size", s.request_size);
  op("readers", s.readers);
  op("open", s.open);
  op("read_unit", s.read_unit);
  op("max_read_rate", s.max_read_rate, bound::nonneg);
  op("requests", s.requests);
  op("read_bytes", s.read_bytes);
  op("opens", s.opens);
  op("short_reads", s.short_reads);
  op("retries", s.retries);
  op("errors", s.errors);
  op("first_error", s.first_error);
  op.section("latency", s.latency);
  op("histogram", s.histogram);
  op.section("sample_latency", s.sample_latency);
  op.section("open_latency", s.open_latency);
  op.section("reader_time", s.reader_time);
}

void visit(section_of<reader_time_section> auto& s, auto& op) {
  op("cpu_s", s.cpu_s);
  op("run_s", s.run_s);
  op("cpu_share", s.cpu_share);
  op("busiest_cpu_share", s.busiest_cpu_share);
  op("queue_full_share", s.queue_full_share);
  op("completion_wait_share", s.completion_wait_share);
  op("mean_in_flight", s.mean_in_flight);
}

void visit(section_of<warm_epochs_section> auto& s, auto& op) {
  op("from_s", s.from_s);
  op("read_bytes", s.read_bytes);
  op("storage_read_bytes", s.storage_read_bytes);
  op("hit_ratio", s.hit_ratio);
  op("storage_per_read_byte", s.storage_per_read_byte, bound::nonneg);
}

void visit(section_of<s3_section> auto& s, auto& op) {
  op("endpoints", s.endpoints);
  op("bucket", s.bucket);
  op("prefix", s.prefix);
  op("region", s.region);
  op("addressing", s.addressing);
  op("server", s.server);
  op("requests", s.requests);
  op("bytes", s.bytes);
  op("retries", s.retries);
  op("errors", s.errors);
  op("connections_opened", s.connections_opened);
  op("retries_by_cause", s.retries_by_cause);
  op("errors_by_cause", s.errors_by_cause);
  op.section("first_byte", s.first_byte);
  op.section("latency", s.latency);
}

void visit(section_of<storage_section> auto& s, auto& op) {
  op("counter", s.counter);
  op("read_bytes", s.read_bytes);
  op("hit_ratio", s.hit_ratio, bound::share);
  op("read_bytes_per_s", s.read_bytes_per_s, bound::nonneg);
  op("memory_start", s.memory_start);
  op("memory_end", s.memory_end);
  op.section("warm_epochs", s.warm_epochs);
  op.section("s3", s.s3);
}

void visit(section_of<cache_cgroup_section> auto& s, auto& op) {
  op("version", s.version);
  op("path", s.path);
  op("dir", s.dir);
  op("removed", s.removed);
  op("ranks", s.ranks);
}

void visit(section_of<eviction_section> auto& s, auto& op) {
  op("files", s.files);
  op("bytes", s.bytes);
  op("resident_bytes_before", s.resident_bytes_before);
  op("resident_bytes_after", s.resident_bytes_after);
}

void visit(section_of<cache_emulation_section> auto& s, auto& op) {
  op("client_ram_bytes", s.client_ram_bytes);
  op.section("cgroup", s.cgroup);
  op("process_rss_bytes_start", s.process_rss_bytes_start);
  op("footprint_bytes_start", s.footprint_bytes_start);
  op("footprint_bytes_peak", s.footprint_bytes_peak);
  op("limit_bytes_start", s.limit_bytes_start);
  op("limit_bytes_peak", s.limit_bytes_peak);
  op("limit_adjustments", s.limit_adjustments);
  op("limit_adjustments_refused", s.limit_adjustments_refused);
  op("page_cache_bytes_peak", s.page_cache_bytes_peak);
  op.section("evicted", s.evicted);
}

void visit(section_of<verify_section> auto& s, auto& op) {
  op("records_checked", s.records_checked);
  op("mismatches", s.mismatches);
  op("problems", s.problems);
  op("content_digest", s.content_digest);
  op("problems", s.problems);
}

void visit(section_of<accelerator_row> auto& s, auto& op) {
  op("id", s.id);
  op("rank", s.rank);
  op("host", s.host);
  op("device", s.device);
  op("steps", s.steps);
  op("measured_steps", s.measured_steps);
  op("samples", s.samples);
  op("read_bytes", s.read_bytes);
  op("measured_samples", s.measured_samples);
  op("measured_read_bytes", s.measured_read_bytes);
  op("samples_per_s", s.samples_per_s);
  op("utilization", s.utilization);
  op("compute_s", s.compute_s);
  op("window_s", s.window_s);
  op("data_wait_s", s.data_wait_s);
  op("sync_wait_s", s.sync_wait_s);
  op("comm_s", s.comm_s);
  op("storage_au", s.storage_au);
  op("first_step_wait_s", s.first_step_wait_s);
  op.section("data_wait", s.data_wait);
  op("sample_digest", s.sample_digest);
  op("gpu", s.gpu);
}

void visit(section_of<rank_row> auto& s, auto& op) {
  op("rank", s.rank);
  op("host", s.host);
  op("node", s.node);
  op("local_rank", s.local_rank);
  op("accelerators", s.accelerators);
  op("samples", s.samples);
  op("read_bytes", s.read_bytes);
  op("samples_per_s", s.samples_per_s);
  op("read_bytes_per_s", s.read_bytes_per_s);
  op("accelerator_utilization", s.accelerator_utilization);
  op("data_wait_s", s.data_wait_s);
  op("sync_wait_s", s.sync_wait_s);
  op("comm_s", s.comm_s);
  op("cpu_utilization", s.cpu_utilization);
  op("cpu_s", s.cpu_s);
  op("requests", s.requests);
  op.section("read_latency", s.read_latency);
  op("failed_samples", s.failed_samples);
  op("wall_s", s.wall_s);
  op("status", s.status);
  op("reason", s.reason);
}

void visit(section_of<host_row> auto& s, auto& op) {
  op("host", s.host);
  op("node", s.node);
  op("ranks", s.ranks);
  op("accelerators", s.accelerators);
  op("samples", s.samples);
  op("samples_per_s", s.samples_per_s);
  op("read_bytes", s.read_bytes);
  op("read_bytes_per_s", s.read_bytes_per_s);
  op("accelerator_utilization", s.accelerator_utilization);
  op("storage_read_bytes", s.storage_read_bytes);
  op("hit_ratio", s.hit_ratio);
  op("cpu_host_utilization", s.cpu_host_utilization);
  op("memory_end", s.memory_end);
}

void visit(section_of<epoch_row> auto& s, auto& op) {
  op("epoch", s.epoch);
  op("steps_total", s.steps_total);
  op("samples", s.samples);
  op("read_bytes", s.read_bytes);
  op("compute_s", s.compute_s);
  op("data_wait_s", s.data_wait_s);
  op("start_s", s.start_s);
  op("end_s", s.end_s);
  op("wall_s", s.wall_s);
  op("accelerator_utilization", s.accelerator_utilization);
  op("samples_per_s", s.samples_per_s);
  op("read_bytes_per_s", s.read_bytes_per_s);
  op("dlio_accelerator_utilization", s.dlio_accelerator_utilization);
  op("last_epoch", s.last_epoch);
  op("epochs_in_row", s.epochs_in_row);
}

void visit(section_of<preprocessing_section> auto& s, auto& op) {
  op("enabled", s.enabled);
  op("cost_per_sample_s", s.cost_per_sample_s);
  op("samples", s.samples);
  op("bytes", s.bytes);
  op("cpu_s", s.cpu_s);
  op("extra_passes", s.extra_passes);
  op("digest", s.digest);
}

void visit(section_of<phases_section> auto& s, auto& op) {
  op("startup_s", s.startup_s);
  op("run_s", s.run_s);
  op("gather_s", s.gather_s);
}

void visit(section_of<checkpoints_section> auto& s, auto& op) {
  op("every", s.every);
  op("every_steps", s.every_steps);
  op("dir", s.dir);
  op("scale", s.scale);
  op("count", s.count);
  op("bytes_per_checkpoint", s.bytes_per_checkpoint);
  op("bytes_per_rank", s.bytes_per_rank);
  op("bytes", s.bytes);
  op("seconds", s.seconds);
  op("seconds_per_checkpoint", s.seconds_per_checkpoint);
  op("mean_seconds", s.mean_seconds);
  op("write_bytes_per_s", s.write_bytes_per_s);
  op("au_lost_to_checkpoints", s.au_lost_to_checkpoints);
  op("au_lost_other", s.au_lost_other);
  op("accelerator_utilization_excluding_checkpoints",
     s.accelerator_utilization_excluding_checkpoints);
}

void visit(section_of<timeseries_point> auto& s, auto& op) {
  op("t_s", s.t_s);
  op("read_bytes_per_s", s.read_bytes_per_s);
  op("samples_per_s", s.samples_per_s);
  op("accelerator_utilization", s.accelerator_utilization);
  op("cpu_process", s.cpu_process);
  op("cpu_host", s.cpu_host);
  op("storage_read_bytes_per_s", s.storage_read_bytes_per_s);
  op("device_busy", s.device_busy);
  op("page_cache_bytes", s.page_cache_bytes);
  op("available_bytes", s.available_bytes);
}

void visit(section_of<tool_features> auto& s, auto& op) {
  op("io_uring", s.io_uring);
  op("liburing", s.liburing);
  op("psync", s.psync);
  op("crc32c", s.crc32c);
  op("mpi", s.mpi);
  op("mpi_library", s.mpi_library);
  op("cuda", s.cuda);
}

void visit(section_of<tool_section> auto& s, auto& op) {
  op("name", s.name);
  op("version", s.version);
  op("commit", s.commit);
  op("build_type", s.build_type);
  op.section("features", s.features);
}

void visit(section_of<backend_section> auto& s, auto& op) {
  op("label", s.label);
  op("label_given", s.label_given);
  op("identity", s.identity);
}

void visit(section_of<fs_separation_section> auto& s, auto& op) {
  op("dataset", s.dataset);
  op("dataset_device", s.dataset_device);
  op("checkpoints", s.checkpoints);
  op("checkpoints_device", s.checkpoints_device);
  op("results", s.results);
  op("results_device", s.results_device);
  op("separate", s.separate);
  op("method", s.method);
}

void visit(section_of<workload_hash_section> auto& s, auto& op) {
  op("algorithm", s.algorithm);
  op("allowlist", s.allowlist);
  op("keys", s.keys);
  op("sha256", s.sha256);
}

void visit(section_of<validity_rule_row> auto& s, auto& op) {
  op("rule", s.rule);
  op("verdict", s.verdict);
  op("measured", s.measured);
  op("source", s.source);
  op("judged_by", s.judged_by);
}

void visit(section_of<validity_section> auto& s, auto& op) {
  op("rules_edition", s.rules_edition);
  op("verdict", s.verdict);
  op.rows("rules", s.rules);
}

void visit(section_of<progress_section> auto& s, auto& op) {
  op("elapsed_s", s.elapsed_s);
  op("read_bytes", s.read_bytes);
  op("samples", s.samples);
  op("read_bytes_per_s", s.read_bytes_per_s);
  op("samples_per_s", s.samples_per_s);
  op("updated_at", s.updated_at);
}

void visit(section_of<bench_report> auto& r, auto& op) {
  op.shape("schema", json_shape::string);
  op.shape("kind", json_shape::string);
  op("created_at", r.created_at);
  op("created_unix_s", r.created_unix_s, bound::nonneg);
  op("label", r.label);
  op("command_line", r.command_line);
  op("config", r.config);
  op("config_given", r.config_given);
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
  op.section("cache_emulation", r.cache_emulation);
  op.section("verify", r.verify);
  op.rows("accelerators", r.accelerators);
  op.rows("ranks", r.ranks);
  op.rows("hosts", r.hosts);
  op.rows("epochs", r.epochs);
  op.rows("timeseries", r.timeseries);
  op.section("preprocessing", r.preprocessing);
  op.section("phases", r.phases);
  op.section("checkpoints", r.checkpoints);
  op.shape("system", json_shape::object);
  op.shape("system/hosts", json_shape::array);
  op("system", r.system);
  op.section("tool", r.tool);
  op.section("backend", r.backend);
  op.section("fs_separation", r.fs_separation);
  op.section("workload_hash", r.workload_hash);
  op.section("mlperf_validity", r.mlperf_validity);
  op("partial", r.partial);
  op.section("progress", r.progress);
}

template <class S> S reader::nested(nlohmann::json& v, const std::string& where) const {
  if (!v.is_object())
    wrong_type(source, where, v, "an object");
  S sec;
  sec.extra = std::move(v);
  reader sub{sec.extra, where, source};
  visit(sec, sub);
  return sec;
}

template <class S> void reader::section(const char* key, std::optional<S>& s) {
  const auto it = obj.find(key);
  if (it == obj.end() || it->is_null()) // null: not measured; it stays untyped, in extra
    return;
  s = nested<S>(*it, key_path(path, key));
  obj.erase(it);
}

template <class S> void reader::rows(const char* key, std::optional<std::vector<S>>& rows) {
  const auto it = obj.find(key);
  if (it == obj.end() || it->is_null())
    return;
  const std::string where = key_path(path, key);
  if (!it->is_array())
    wrong_type(source, where, *it, "an array of objects");
  std::vector<S> out;
  for (std::size_t i = 0; i < it->size(); ++i)
    out.push_back(nested<S>((*it)[i], fmt::format("{}/{}", where, i)));
  obj.erase(it);
  rows = std::move(out);
}

template <class S> nlohmann::json writer::nested(const S& s) {
  nlohmann::json o = s.extra.is_object() ? s.extra : nlohmann::json::object();
  writer sub{o};
  visit(s, sub);
  return o;
}

template <class S> void writer::section(const char* key, const std::optional<S>& s) {
  if (s)
    obj[key] = nested(*s);
}

template <class S> void writer::rows(const char* key, const std::optional<std::vector<S>>& rows) {
  if (!rows)
    return;
  nlohmann::json a = nlohmann::json::array();
  for (const auto& row : *rows)
    a.push_back(nested(row));
  obj[key] = std::move(a);
}

} // namespace

latency_summary latency_summary_of(const histogram& h) {
  latency_summary l;
  l.count = h.count();
  l.mean_s = h.mean() * 1e-9;
  l.p50_s = h.quantile(0.5) * 1e-9;
  l.p90_s = h.quantile(0.9) * 1e-9;
  l.p99_s = h.quantile(0.99) * 1e-9;
  l.p999_s = h.quantile(0.999) * 1e-9;
  l.max_s = static_cast<double>(h.max()) * 1e-9;
  return l;
}

latency_summary latency_with_histogram(const histogram& h) {
  latency_summary l = latency_summary_of(h);
  l.histogram = h.to_json();
  return l;
}

nlohmann::json to_json(const latency_summary& l) {
  return writer::nested(l);
}

nlohmann::json to_json(const s3_section& s) {
  return writer::nested(s);
}

nlohmann::json to_json(const dataset_section& s) {
  return writer::nested(s);
}

nlohmann::json to_json(const io_section& s) {
  return writer::nested(s);
}

nlohmann::json to_json(const storage_section& s) {
  return writer::nested(s);
}

nlohmann::json to_json(const summary_section& s) {
  return writer::nested(s);
}

nlohmann::json to_json(const cache_emulation_section& s) {
  return writer::nested(s);
}

nlohmann::json to_json(const verify_section& s) {
  return writer::nested(s);
}

nlohmann::json to_json(const limit_section& s) {
  return writer::nested(s);
}

nlohmann::json to_json(const field<warm_epochs_section>& s) {
  return s.has_value() ? writer::nested(*s) : nlohmann::json(nullptr);
}

s3_section s3_section_from_json(const nlohmann::json& j, const std::string& source) {
  nlohmann::json holder = {{"s3", j}};
  reader r{holder, "/storage", source};
  std::optional<s3_section> s;
  r.section("s3", s);
  if (!s)
    wrong_type(source, "/storage/s3", j, "an object");
  return *s;
}

template <class S> S section_from_json(const nlohmann::json& j, const std::string& where) {
  nlohmann::json holder = nlohmann::json::object();
  holder.emplace(where, j);
  reader r{holder, "", "report"};
  std::optional<S> s;
  r.section(where.c_str(), s);
  if (!s)
    wrong_type("report", key_path("", where), j, "an object");
  return *s;
}

template fs_separation_section section_from_json(const nlohmann::json&, const std::string&);

std::vector<timeseries_point> timeseries_from_json(const nlohmann::json& series) {
  nlohmann::json holder = nlohmann::json::object();
  holder.emplace("timeseries", series);
  reader r{holder, "", "timeseries"};
  std::optional<std::vector<timeseries_point>> rows;
  r.rows("timeseries", rows);
  return rows.value_or(std::vector<timeseries_point>{});
}

template <class S> nlohmann::json section_to_json(const S& s) {
  return writer::nested(s);
}

template nlohmann::json section_to_json(const fs_separation_section&);
template nlohmann::json section_to_json(const workload_hash_section&);

nlohmann::json to_json(const tool_section& t) {
  nlohmann::json j = nlohmann::json::object();
  writer w{j};
  w.section("tool", std::optional<tool_section>(t));
  return j.at("tool");
}

namespace {

// A top-level string of a document; never throws: anything else reads as "".
std::string top_text(const nlohmann::json& j, const char* key) {
  if (!j.is_object())
    return "";
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

} // namespace

bool is_bench_report(const nlohmann::json& j) {
  return top_text(j, "schema") == kReportSchema && top_text(j, "kind") == "bench";
}

nlohmann::json bench_report::to_json() const {
  nlohmann::json j = extra.is_object() ? extra : nlohmann::json::object();
  j["schema"] = schema;
  j["kind"] = kind;
  writer w{j};
  visit(*this, w);
  return j;
}

bench_report bench_report::from_json(const nlohmann::json& j, const std::string& source) {
  if (!is_bench_report(j))
    throw usage_error(fmt::format(
        "{}: not a dlsize bench report. schema: {}; kind: {}; valid: schema {}, kind bench", source,
        j.is_object() ? j.value("schema", nlohmann::json("(none)")).dump() : "(not an object)",
        j.is_object() ? j.value("kind", nlohmann::json("(none)")).dump() : "(not an object)",
        kReportSchema));
  bench_report r;
  r.extra = j;
  r.extra.erase("schema");
  r.extra.erase("kind");
  reader rd{r.extra, "", source};
  visit(r, rd);
  return r;
}

bench_report bench_report::fields_of(const nlohmann::json& j, const std::string& source) {
  if (!j.is_object())
    throw usage_error(
        fmt::format("{}: /: is {}. valid: a dlsize report (a JSON object)", source, found_text(j)));
  bench_report r;
  r.extra = j;
  reader rd{r.extra, "", source};
  visit(r, rd);
  return r;
}

void check_report_fields(const nlohmann::json& j, const std::string& source) {
  (void)bench_report::fields_of(j, source);
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
