// The JSON of a checkpoint report (report/checkpoint_document.hpp,
// docs/report-schema.md#checkpoint): the one place its keys are written and read. Each struct's
// keys are listed once, in its visit, which writing and reading share; nlohmann::json orders the
// keys.
#include <map>
#include <type_traits>

#include <fmt/format.h>

#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "report/checkpoint_document.hpp"
#include "report/latency_keys.hpp"
#include "report/report_io.hpp"

namespace dlsize::report {
// A named namespace of its own: a unity build compiles this file with bench_report_json.cpp, whose
// helpers have the same names.
namespace checkpoint_keys {
namespace {

using nlohmann::json;

template <class S, class T>
concept section_of = std::is_same_v<std::remove_const_t<S>, T>;

void visit(section_of<checkpoint_rank_figures> auto& s, auto& op) {
  op("rank", s.rank);
  op("bytes", s.bytes);
  op("seconds", s.seconds);
  op("bytes_per_s", s.bytes_per_s);
}

void visit(section_of<checkpoint_run_figures> auto& s, auto& op) {
  op("checkpoint", s.checkpoint);
  op("duration_s", s.duration_s);
  op("bytes", s.bytes);
  op("bytes_per_s", s.bytes_per_s);
  op("throughput_bytes_per_s", s.throughput_bytes_per_s);
  op("ranks", s.ranks);
}

void visit(section_of<checkpoint_durations> auto& s, auto& op) {
  op("mean", s.mean);
  op("min", s.min);
  op("max", s.max);
}

void visit(section_of<checkpoint_generation> auto& s, auto& op) {
  op("fill_s", s.fill_s);
  op("completion_wait_s", s.completion_wait_s);
  op("starved_s", s.starved_s);
  op("starved_share", s.starved_share);
  op("writer_s", s.writer_s);
  op("fill_share", s.fill_share);
  op("completion_wait_share", s.completion_wait_share);
}

void visit(section_of<checkpoint_verify> auto& s, auto& op) {
  op("enabled", s.enabled);
  op("blocks", s.blocks);
  op("mismatches", s.mismatches);
  op("problems", s.problems);
}

void visit(section_of<checkpoint_phase_figures> auto& s, auto& op) {
  op("asked", s.asked);
  op("count", s.count);
  op("bytes", s.bytes);
  op("seconds", s.seconds);
  op("bytes_per_s", s.bytes_per_s);
  op("duration_s", s.duration_s);
  op("throughput_bytes_per_s", s.throughput_bytes_per_s);
  op("latency", s.latency);
  op("cpu_s", s.cpu_s);
  op("cpu_s_per_gib", s.cpu_s_per_gib);
  op("per_rank", s.per_rank);
  op("runs", s.runs);
  op("fsync_latency", s.fsync_latency);
  op("generation", s.generation);
  op("verify", s.verify);
}

void visit(section_of<checkpoint_s3_section> auto& s, auto& op) {
  op("endpoints", s.endpoints);
  op("bucket", s.bucket);
  op("prefix", s.prefix);
  op("region", s.region);
  op("addressing", s.addressing);
  op("server", s.server);
  op("part_size", s.part_size);
  op("parts_in_flight", s.parts_in_flight);
  op("write", s.write);
  op("read", s.read);
  op("upload_time", s.upload_time);
  op("settings_from", s.settings_from);
}

void visit(section_of<checkpoint_failure> auto& s, auto& op) {
  op("phase", s.phase);
  op("checkpoint", s.checkpoint);
  op("rank", s.rank);
  op("file", s.file);
  op("error", s.error);
}

void visit(section_of<checkpoint_section> auto& s, auto& op) {
  op("dir", s.dir);
  op("fs_type", s.fs_type);
  op("ranks", s.ranks);
  op("job_ranks", s.job_ranks);
  op("tensor_parallel", s.tensor_parallel);
  op("pipeline_parallel", s.pipeline_parallel);
  op("data_parallel", s.data_parallel);
  op("subset", s.subset);
  op("scale", s.scale);
  op("files_per_rank", s.files_per_rank);
  op("request_size", s.request_size);
  op("queue_depth", s.queue_depth);
  op("cache_mode", s.cache_mode);
  op("registered_buffers", s.registered_buffers);
  op("bytes_per_rank", s.bytes_per_rank);
  op("bytes_per_checkpoint", s.bytes_per_checkpoint);
  op("coexisting_checkpoints", s.coexisting_checkpoints);
  op("kept", s.kept);
  op("read_shift", s.read_shift);
  op("caches_dropped", s.caches_dropped);
  op("dedupe_percent", s.dedupe_percent);
  op("compress_percent", s.compress_percent);
  op("write", s.write);
  op("read", s.read);
  op("s3", s.s3);
  op("failure", s.failure);
}

void visit(section_of<checkpoint_workload> auto& s, auto& op) {
  op("name", s.name);
  op("checkpoint", s.checkpoint);
}

void visit(section_of<checkpoint_document> auto& s, auto& op) {
  op("run_id", s.run_id);
  op("created_at", s.created_at);
  op("created_unix_s", s.created_unix_s);
  op("tool", s.tool);
  op("command_line", s.command_line);
  op("config", s.config);
  op("label", s.label);
  op("workload", s.workload);
  op("system", s.system);
  op("checkpoint", s.checkpoint);
  op("fs_separation", s.fs_separation);
  op("mlperf_validity", s.mlperf_validity);
  op("warnings", s.warnings);
  op("status", s.status);
  op("reason", s.reason);
}

// The struct types above, whose keys their visit lists.
struct probe {
  template <class T> void operator()(const char*, T&) {}
};
template <class T>
concept visited = requires(T& t, probe& p) {
  visit(t, p);
};

template <class T> struct is_vector : std::false_type {};
template <class T> struct is_vector<std::vector<T>> : std::true_type {};
template <class T> struct is_optional : std::false_type {};
template <class T> struct is_optional<std::optional<T>> : std::true_type {};

// A latency as the report holds it: count, mean and percentiles, and the histogram they came from.
json latency_json(const histogram& h) {
  json j = to_json(latency_summary_of(h));
  j["histogram"] = h.to_json();
  return j;
}

template <class T> json value_json(const T& v) {
  if constexpr (visited<T>) {
    json j = json::object();
    auto put = [&j](const char* key, const auto& member) {
      if constexpr (is_optional<std::remove_cvref_t<decltype(member)>>::value) {
        if (member)
          j[key] = value_json(*member);
      } else {
        j[key] = value_json(member);
      }
    };
    visit(v, put);
    return j;
  } else if constexpr (is_vector<T>::value) {
    json a = json::array();
    for (const auto& e : v)
      a.push_back(value_json(e));
    return a;
  } else if constexpr (std::is_same_v<T, histogram>) {
    return latency_json(v);
  } else if constexpr (std::is_same_v<T, run_status>) {
    return to_string(v);
  } else if constexpr (std::is_same_v<T, validity> || std::is_same_v<T, s3_section> ||
                       std::is_same_v<T, latency_summary> ||
                       std::is_same_v<T, config::checkpoint_profile>) {
    return to_json(v);
  } else if constexpr (std::is_same_v<T, system_section> ||
                       std::is_same_v<T, fs_separation_section>) {
    return section_to_json(v);
  } else {
    return json(v);
  }
}

// Where a value is read from, for the errors: "FILE: /checkpoint/write/bytes: ...".
struct place {
  const std::string& source;
  std::string pointer;

  place at(const std::string& key) const { return {source, pointer + "/" + key}; }
  std::string where() const {
    return fmt::format("{}: {}", source, pointer.empty() ? "/" : pointer);
  }
  [[noreturn]] void fail(const std::string& what) const {
    throw usage_error(fmt::format("{}: {}", where(), what));
  }
  void expect(bool ok, const json& v, const char* valid) const {
    if (ok)
      return;
    const char* found = v.is_object()    ? "an object"
                        : v.is_array()   ? "an array"
                        : v.is_string()  ? "a string"
                        : v.is_boolean() ? "a boolean"
                        : v.is_null()    ? "null"
                                         : "a number";
    fail(fmt::format("is {}. valid: {}", v.is_number() ? v.dump() : found, valid));
  }
};

template <class T> void read_value(const json& v, const place& at, T& out);

// Every key of the struct, by its visit: a missing key fails, a missing optional one is none.
template <class T> void read_members(const json& v, const place& at, T& out) {
  at.expect(v.is_object(), v, "an object");
  auto get = [&](const char* key, auto& member) {
    const auto it = v.find(key);
    if constexpr (is_optional<std::remove_cvref_t<decltype(member)>>::value) {
      if (it == v.end()) {
        member.reset();
        return;
      }
      member.emplace();
      read_value(*it, at.at(key), *member);
    } else {
      if (it == v.end())
        at.at(key).fail("missing");
      read_value(*it, at.at(key), member);
    }
  };
  visit(out, get);
}

latency_summary read_latency_summary(const json& v, const place& at) {
  at.expect(v.is_object(), v, "an object");
  latency_summary l;
  auto get = [&](const char* key, auto& f) {
    using T = typename decltype(f.value)::value_type;
    const auto it = v.find(key);
    if (it == v.end())
      return;
    if (it->is_null()) {
      f = field<T>::null();
      return;
    }
    T x{};
    read_value(*it, at.at(key), x);
    f = x;
  };
  latency_keys(l, get);
  return l;
}

validity read_validity(const json& v, const place& at) {
  at.expect(v.is_object(), v, "an object");
  validity out;
  std::string edition;
  read_value(v.contains("rules_edition") ? v.at("rules_edition") : json(), at.at("rules_edition"),
             edition);
  out.edition = parse_rules_edition(edition, at.at("rules_edition").where());
  const place rules = at.at("rules");
  const json& list = v.contains("rules") ? v.at("rules") : json();
  rules.expect(list.is_array(), list, "an array");
  for (std::size_t i = 0; i < list.size(); ++i) {
    const place r = rules.at(std::to_string(i));
    const json& row = list[i];
    r.expect(row.is_object(), row, "an object");
    validity_rule rule;
    std::string verdict;
    for (const auto& [key, text] :
         {std::pair{"rule", &rule.rule}, std::pair{"verdict", &verdict},
          std::pair{"measured", &rule.measured}, std::pair{"source", &rule.source},
          std::pair{"judged_by", &rule.judge}}) {
      if (!row.contains(key))
        r.at(key).fail("missing");
      read_value(row.at(key), r.at(key), *text);
    }
    rule.verdict = core::parse_enum<rule_verdict>(verdict, r.at("verdict").where());
    out.rules.push_back(std::move(rule));
  }
  return out;
}

config::checkpoint_profile read_profile(const json& v, const place& at) {
  at.expect(v.is_object(), v, "an object");
  config::checkpoint_profile p;
  auto get = [&](const char* key, auto& member) {
    if (!v.contains(key))
      at.at(key).fail("missing");
    read_value(v.at(key), at.at(key), member);
  };
  get("parameters", p.parameters);
  get("model_bytes_per_parameter", p.model_bytes_per_parameter);
  get("optimizer_bytes_per_parameter", p.optimizer_bytes_per_parameter);
  get("model_bytes", p.model_bytes);
  get("optimizer_bytes", p.optimizer_bytes);
  std::uint64_t tp = 0, pp = 0, dp = 0, zero = 0;
  get("tensor_parallel", tp);
  get("pipeline_parallel", pp);
  get("data_parallel", dp);
  get("zero_stage", zero);
  p.tensor_parallel = static_cast<unsigned>(tp);
  p.pipeline_parallel = static_cast<unsigned>(pp);
  p.data_parallel = static_cast<unsigned>(dp);
  p.zero_stage = static_cast<unsigned>(zero);
  get("estimate", p.estimate);
  get("published", p.published);
  get("source", p.source);
  return p;
}

template <class T> void read_value(const json& v, const place& at, T& out) {
  if constexpr (visited<T>) {
    read_members(v, at, out);
  } else if constexpr (is_vector<T>::value) {
    at.expect(v.is_array(), v, "an array");
    out.clear();
    for (std::size_t i = 0; i < v.size(); ++i)
      read_value(v[i], at.at(std::to_string(i)), out.emplace_back());
  } else if constexpr (std::is_same_v<T, histogram>) {
    at.expect(v.is_object() && v.contains("histogram"), v, "an object with a histogram");
    out = histogram::from_json(v.at("histogram"));
  } else if constexpr (std::is_same_v<T, run_status>) {
    at.expect(v.is_string(), v, "a string");
    out = core::parse_enum<run_status>(v.get<std::string>(), at.where());
  } else if constexpr (std::is_same_v<T, validity>) {
    out = read_validity(v, at);
  } else if constexpr (std::is_same_v<T, s3_section>) {
    out = s3_section_from_json(v, at.source);
  } else if constexpr (std::is_same_v<T, system_section> ||
                       std::is_same_v<T, fs_separation_section>) {
    out = section_from_json<T>(v, at.pointer, at.source);
  } else if constexpr (std::is_same_v<T, latency_summary>) {
    out = read_latency_summary(v, at);
  } else if constexpr (std::is_same_v<T, config::checkpoint_profile>) {
    out = read_profile(v, at);
  } else if constexpr (std::is_same_v<T, json>) {
    out = v;
  } else if constexpr (std::is_same_v<T, std::map<std::string, std::string>>) {
    at.expect(v.is_object(), v, "an object of strings");
    for (const auto& [k, x] : v.items())
      read_value(x, at.at(k), out[k]);
  } else if constexpr (std::is_same_v<T, std::string>) {
    at.expect(v.is_string(), v, "a string");
    out = v.get<std::string>();
  } else if constexpr (std::is_same_v<T, bool>) {
    at.expect(v.is_boolean(), v, "true or false");
    out = v.get<bool>();
  } else if constexpr (std::is_same_v<T, double>) {
    at.expect(v.is_number(), v, "a number");
    out = v.get<double>();
  } else {
    static_assert(std::is_same_v<T, std::uint64_t>);
    at.expect(v.is_number_unsigned(), v, "an integer >= 0");
    out = v.get<std::uint64_t>();
  }
}

} // namespace
} // namespace checkpoint_keys

using nlohmann::json;

json to_json(const checkpoint_document& d) {
  using checkpoint_keys::value_json;
  json j = value_json(d);
  j["schema"] = kReportSchema;
  j["kind"] = "checkpoint";
  return j;
}

bool is_checkpoint_report(const json& j) {
  if (!j.is_object())
    return false;
  const auto it = j.find("kind");
  return it != j.end() && *it == "checkpoint";
}

checkpoint_document checkpoint_document_from_json(const json& j, const std::string& source) {
  const checkpoint_keys::place top{source, ""};
  top.expect(j.is_object(), j, "an object");
  const auto text = [&](const char* key) {
    const auto it = j.find(key);
    return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
  };
  if (text("schema") != kReportSchema || text("kind") != "checkpoint")
    top.fail(fmt::format("not a checkpoint report. valid: schema {} and kind checkpoint",
                         kReportSchema));
  checkpoint_document d;
  checkpoint_keys::read_members(j, top, d);
  return d;
}

} // namespace dlsize::report
