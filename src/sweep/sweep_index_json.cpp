// The JSON of a sweep_document ("schema": "dlsize.sweep/1"): the one place a sweep index's keys
// are written and read, and where a point's report is read for its summary.
#include <fmt/format.h>

#include "core/error.hpp"
#include "core/json_checks.hpp"
#include "core/json_input.hpp"
#include "report/bench_report.hpp"
#include "report/run_status.hpp"
#include "sweep/sweep_document.hpp"

namespace dlsize::sweep {
namespace {

template <typename T> nlohmann::json or_null(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

template <typename E> nlohmann::json name_or_null(const std::optional<E>& v) {
  return v ? nlohmann::json(core::name_of(*v)) : nlohmann::json(nullptr);
}

// Reads the fields of one object, each taken out of `rest` as it is read, so that what is left
// is the object's extra. Every error names the source and the key's path.
class reader {
public:
  reader(const core::json_checker& ck, const nlohmann::json& obj, std::string path)
      : m_ck(ck), m_path(std::move(path)) {
    if (!obj.is_object())
      m_ck.fail(m_path, "must be an object");
    rest = obj;
  }

  // Absent or null: nothing.
  template <typename T> std::optional<T> nullable(const char* key) {
    const auto it = rest.find(key);
    if (it == rest.end())
      return std::nullopt;
    const nlohmann::json v = std::move(*it);
    rest.erase(it);
    if (v.is_null())
      return std::nullopt;
    return value_of<T>(v, key);
  }
  template <typename T> T required(const char* key) {
    const auto it = rest.find(key);
    if (it == rest.end())
      m_ck.fail(at(key), "missing");
    const nlohmann::json v = std::move(*it);
    rest.erase(it);
    return value_of<T>(v, key);
  }
  template <typename E> E enumerated(const char* key) {
    const auto text = required<std::string>(key);
    if (const auto e = core::find_enum<E>(text))
      return *e;
    m_ck.fail(at(key), fmt::format("'{}' is not valid. valid: {}", text, core::name_list<E>()));
  }
  template <typename E> std::optional<E> nullable_enum(const char* key) {
    const auto text = nullable<std::string>(key);
    if (!text)
      return std::nullopt;
    if (const auto e = core::find_enum<E>(*text))
      return *e;
    m_ck.fail(at(key),
              fmt::format("'{}' is not valid. valid: {}, or null", *text, core::name_list<E>()));
  }
  std::string at(const char* key) const { return core::join_path(m_path, key); }
  const core::json_checker& checker() const { return m_ck; }

  nlohmann::json rest;

private:
  template <typename T> T value_of(const nlohmann::json& v, const char* key) const {
    if constexpr (std::is_same_v<T, nlohmann::json>) {
      return v;
    } else if constexpr (std::is_same_v<T, std::string>) {
      if (!v.is_string())
        m_ck.fail(at(key), "must be a string");
    } else if constexpr (std::is_same_v<T, bool>) {
      if (!v.is_boolean())
        m_ck.fail(at(key), "must be true or false");
    } else if constexpr (std::is_same_v<T, double>) {
      if (!v.is_number())
        m_ck.fail(at(key), "must be a number");
    } else if constexpr (std::is_same_v<T, std::uint64_t>) {
      if (!v.is_number_unsigned())
        m_ck.fail(at(key), "must be an integer of at least 0");
    } else if constexpr (std::is_same_v<T, std::int64_t>) {
      if (!v.is_number_integer())
        m_ck.fail(at(key), "must be an integer");
    } else if constexpr (std::is_same_v<T, std::vector<std::string>>) {
      if (!v.is_array() ||
          !std::all_of(v.begin(), v.end(), [](const auto& a) { return a.is_string(); }))
        m_ck.fail(at(key), "must be an array of strings");
    }
    return v.get<T>();
  }

  const core::json_checker& m_ck;
  std::string m_path;
};

// A JSON object of `extra` with the typed fields written over it.
nlohmann::json with_extra(const nlohmann::json& extra, nlohmann::json typed) {
  nlohmann::json j = extra.is_object() ? extra : nlohmann::json::object();
  for (auto& [k, v] : typed.items())
    j[k] = std::move(v);
  return j;
}

nlohmann::json to_json(const point_summary& s) {
  if (s.checkpoint)
    return with_extra(s.extra, {{"status", s.status},
                                {"write_bytes_per_s", or_null(s.write_bytes_per_s)},
                                {"read_bytes_per_s", or_null(s.read_bytes_per_s)}});
  return with_extra(s.extra, {{"status", s.status},
                              {"accelerator_utilization", or_null(s.accelerator_utilization)},
                              {"au_pass", or_null(s.au_pass)},
                              {"read_bytes_per_s", or_null(s.read_bytes_per_s)},
                              {"samples_per_s", or_null(s.samples_per_s)}});
}

point_summary summary_from_json(reader r) {
  point_summary s;
  s.status = r.required<std::string>("status");
  s.checkpoint = r.rest.contains("write_bytes_per_s");
  if (s.checkpoint) {
    s.write_bytes_per_s = r.nullable<double>("write_bytes_per_s");
  } else {
    s.accelerator_utilization = r.nullable<double>("accelerator_utilization");
    s.au_pass = r.nullable<bool>("au_pass");
    s.samples_per_s = r.nullable<double>("samples_per_s");
  }
  s.read_bytes_per_s = r.nullable<double>("read_bytes_per_s");
  s.extra = std::move(r.rest);
  return s;
}

nlohmann::json to_json(const point_record& p) {
  return with_extra(p.extra, {{"id", p.id},
                              {"accelerators", or_null(p.accelerators)},
                              {"ranks", p.ranks},
                              {"dataset", or_null(p.dataset)},
                              {"cache", name_or_null(p.cache)},
                              {"repeat", p.repeat},
                              {"seed", or_null(p.seed)},
                              {"status", core::name_of(p.status)},
                              {"attempts", p.attempts},
                              {"report", or_null(p.report)},
                              {"log", or_null(p.log)},
                              {"argv", or_null(p.argv)},
                              {"exit_code", or_null(p.exit_code)},
                              {"signal", or_null(p.signal)},
                              {"started_at", or_null(p.started_at)},
                              {"ended_at", or_null(p.ended_at)},
                              {"wall_s", or_null(p.wall_s)},
                              {"summary", p.summary ? to_json(*p.summary) : nullptr}});
}

point_record point_from_json(reader r) {
  point_record p;
  p.id = r.required<std::string>("id");
  p.accelerators = r.nullable<std::uint64_t>("accelerators");
  p.ranks = r.required<std::uint64_t>("ranks");
  p.dataset = r.nullable<std::string>("dataset");
  p.cache = r.nullable_enum<io::cache_mode>("cache");
  p.repeat = r.required<std::uint64_t>("repeat");
  p.seed = r.nullable<std::uint64_t>("seed");
  p.status = r.enumerated<point_status>("status");
  p.attempts = r.required<std::uint64_t>("attempts");
  p.report = r.nullable<std::string>("report");
  p.log = r.nullable<std::string>("log");
  p.argv = r.nullable<std::vector<std::string>>("argv");
  p.exit_code = r.nullable<std::int64_t>("exit_code");
  p.signal = r.nullable<std::int64_t>("signal");
  p.started_at = r.nullable<std::string>("started_at");
  p.ended_at = r.nullable<std::string>("ended_at");
  p.wall_s = r.nullable<double>("wall_s");
  if (const auto s = r.nullable<nlohmann::json>("summary"))
    p.summary = summary_from_json(reader(r.checker(), *s, r.at("summary")));
  p.extra = std::move(r.rest);
  return p;
}

std::string text_or_empty(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// A checkpoint report's status and its write and restore rates (null for a phase it did not
// run).
point_summary checkpoint_summary(const nlohmann::json& j) {
  point_summary s;
  s.checkpoint = true;
  s.status = text_or_empty(j, "status");
  const auto rate = [&](const char* phase) -> std::optional<double> {
    const auto c = j.find("checkpoint");
    if (c == j.end() || !c->is_object() || !c->contains(phase))
      return std::nullopt;
    const auto& p = (*c)[phase];
    const auto count = p.find("count");
    const auto bytes_per_s = p.find("bytes_per_s");
    if (count == p.end() || !count->is_number() || count->get<double>() <= 0 ||
        bytes_per_s == p.end() || !bytes_per_s->is_number())
      return std::nullopt;
    return bytes_per_s->get<double>();
  };
  s.write_bytes_per_s = rate("write");
  s.read_bytes_per_s = rate("read");
  return s;
}

} // namespace

nlohmann::json to_json(const sweep_document& d) {
  nlohmann::json points = nlohmann::json::array();
  for (const auto& p : d.points)
    points.push_back(to_json(p));
  nlohmann::json j = with_extra(d.extra, {{"schema", kSweepSchema},
                                          {"created_at", d.created_at},
                                          {"tool", d.tool},
                                          {"command_line", d.command_line},
                                          {"config_source", d.config_source},
                                          {"config", d.config},
                                          {"status", core::name_of(d.status)},
                                          {"points", std::move(points)},
                                          {"updated_at", d.updated_at}});
  if (d.reason)
    j["reason"] = *d.reason;
  if (d.resumed_at)
    j["resumed_at"] = *d.resumed_at;
  return j;
}

sweep_document from_json(const nlohmann::json& j, const std::string& source) {
  const auto schema = j.is_object() ? j.find("schema") : j.end();
  if (!j.is_object() || schema == j.end() || *schema != kSweepSchema)
    throw usage_error(
        fmt::format("{}: not a dlsize sweep index (schema {})", source, kSweepSchema));
  const core::json_checker ck(source);
  reader r(ck, j, "");
  r.rest.erase("schema");
  sweep_document d;
  d.created_at = r.required<std::string>("created_at");
  d.tool = r.required<nlohmann::json>("tool");
  d.command_line = r.required<nlohmann::json>("command_line");
  d.config_source = r.required<std::string>("config_source");
  d.config = r.required<nlohmann::json>("config");
  d.status = r.enumerated<sweep_status>("status");
  d.reason = r.nullable<std::string>("reason");
  const auto points = r.required<nlohmann::json>("points");
  if (!points.is_array())
    ck.fail("points", "must be an array");
  for (std::size_t i = 0; i < points.size(); ++i)
    d.points.push_back(point_from_json(reader(ck, points[i], fmt::format("points[{}]", i))));
  d.resumed_at = r.nullable<std::string>("resumed_at");
  d.updated_at = r.required<std::string>("updated_at");
  d.extra = std::move(r.rest);
  return d;
}

std::optional<point_summary> read_point_summary(const std::filesystem::path& report) {
  try {
    const auto j = core::read_json_file(report, core::kReportJson);
    if (j.is_object() && text_or_empty(j, "kind") == "checkpoint")
      return checkpoint_summary(j);
    const auto r = report::bench_report::from_json(j);
    const auto& s = report::or_empty(r.summary);
    point_summary out;
    out.status = r.status.has_value() ? report::to_string(*r.status) : "";
    out.accelerator_utilization = s.accelerator_utilization.value;
    out.au_pass = s.au_pass.value;
    out.read_bytes_per_s = s.read_bytes_per_s.value;
    out.samples_per_s = s.samples_per_s.value;
    return out;
  } catch (const usage_error&) {
    return std::nullopt;
  }
}

std::vector<std::string> done_reports(const sweep_document& index) {
  std::vector<std::string> out;
  for (const auto& p : index.points)
    if (p.status == point_status::done && p.report)
      out.push_back(*p.report);
  return out;
}

} // namespace dlsize::sweep
