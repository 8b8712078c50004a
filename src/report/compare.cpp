#include "report/compare.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "core/error.hpp"
#include "report/backend_identity.hpp"
#include "report/report_io.hpp"
#include "report/run_identity.hpp"
#include "sizing/stats.hpp"

namespace dlsize::report {
namespace {

// What a comparison lines up, where in a report it lives, and which direction is better.
struct metric {
  const char* name;
  const char* unit;
  nlohmann::json::json_pointer where;
  bool higher_is_better;
};

const std::vector<metric>& metrics() {
  using ptr = nlohmann::json::json_pointer;
  static const std::vector<metric> m = {
      {"samples_per_s", "samples/s", ptr("/summary/samples_per_s"), true},
      {"samples_per_s_per_accelerator", "samples/s", ptr("/summary/samples_per_s_per_accelerator"),
       true},
      {"accelerator_utilization", "fraction", ptr("/summary/accelerator_utilization"), true},
      {"read_bytes_per_s", "bytes/s", ptr("/summary/read_bytes_per_s"), true},
      {"latency_p50_s", "s", ptr("/io/latency/p50_s"), false},
      {"latency_p90_s", "s", ptr("/io/latency/p90_s"), false},
      {"latency_p99_s", "s", ptr("/io/latency/p99_s"), false},
      {"data_wait_p99_s", "s", ptr("/summary/data_wait/p99_s"), false},
      {"cpu_process", "cores", ptr("/summary/cpu_utilization/process"), false},
  };
  return m;
}

void check_same_load(const loaded_report& first, const loaded_report& other,
                     nlohmann::json& warnings) {
  const auto& a = first.report;
  const auto& b = other.report;
  if (workload_of(a) != workload_of(b) || accelerator_type_of(a) != accelerator_type_of(b) ||
      accelerators_of(a) != accelerators_of(b))
    throw usage_error(
        fmt::format("compare: {} runs {} on {} × {}, but {} runs {} on {} × {}: not the same load. "
                    "valid: reports of one workload, accelerator type and count",
                    other.file, workload_of(b), accelerators_of(b), accelerator_type_of(b),
                    first.file, workload_of(a), accelerators_of(a), accelerator_type_of(a)));
  if (dataset_shape(a) != dataset_shape(b))
    throw usage_error(
        fmt::format("compare: the dataset of {} has {}, that of {} has {}: not the same "
                    "load. valid: the same dataset (same datagen options) on each backend",
                    other.file, dataset_shape(b), first.file, dataset_shape(a)));
  const auto id = [](const nlohmann::json& r) {
    return r.value("dataset", nlohmann::json::object()).value("dataset_id", "");
  };
  if (id(a) != id(b))
    warnings.push_back(
        fmt::format("datasets of the same shape but other contents (dataset_id {} in {}, {} in {})",
                    id(a), first.file, id(b), other.file));
  for (const auto& w : setting_differences(a, first.file, b, other.file, backend_settings()))
    warnings.push_back(w);
  if (b.value("status", "") != "complete")
    warnings.push_back(fmt::format("{} is {}", other.file, b.value("status", "?")));
}

} // namespace

nlohmann::json compare_reports(const std::vector<loaded_report>& reports) {
  if (reports.size() < 2)
    throw usage_error("compare: give at least two reports");
  for (const auto& r : reports)
    if (!is_bench_report(r.report))
      throw usage_error(fmt::format(
          "{}: not a dlsize bench report (schema {}). valid: reports written by dlsize bench --out",
          r.file, kReportSchema));
  const auto& first = reports.front();
  nlohmann::json warnings = nlohmann::json::array();
  for (std::size_t i = 1; i < reports.size(); ++i)
    check_same_load(first, reports[i], warnings);
  if (first.report.value("status", "") != "complete")
    warnings.push_back(fmt::format("{} is {}", first.file, first.report.value("status", "?")));

  // Backends in order of first appearance. Runs of one load spread differently over nodes and
  // ranks (scale-up against scale-out) are told apart by their topology.
  std::set<std::string> shapes;
  for (const auto& r : reports)
    shapes.insert(topology_label(r.report));
  const auto shape_of = [&](const nlohmann::json& rep) {
    return shapes.size() > 1 ? ", " + topology_label(rep) : std::string();
  };
  std::vector<std::string> order; // group keys: backend identity and topology
  std::vector<backend_identity> ids;
  std::map<std::string, std::vector<const loaded_report*>> groups;
  for (const auto& r : reports) {
    const backend_identity id = backend_identity_of(r.report);
    const std::string key = id.key() + shape_of(r.report);
    if (!groups.count(key)) {
      order.push_back(key);
      ids.push_back(id);
    }
    groups[key].push_back(&r);
  }
  std::vector<std::string> names = distinct_names(ids);
  for (std::size_t i = 0; i < order.size(); ++i)
    names[i] += shape_of(groups[order[i]].front()->report);
  if (order.size() < 2)
    warnings.push_back("every report has the same backend: this compares repeats of one run");
  for (const auto& w : duplicate_runs(reports))
    warnings.push_back(w);
  // Repeats take a new seed each (as MLPerf Storage asks); backends should see the same seeds.
  auto seeds_of = [&](const std::string& b) {
    std::vector<std::string> s;
    for (const auto* r : groups[b])
      s.push_back(text_of(r->report["config"].value("seed", nlohmann::json(nullptr))));
    std::sort(s.begin(), s.end());
    return s;
  };
  for (std::size_t i = 1; i < order.size(); ++i)
    if (seeds_of(order[i]) != seeds_of(order[0]))
      warnings.push_back(fmt::format(
          "the runs of {} used seeds {}, those of {} seeds {}: the loads are not identical",
          names[i], fmt::join(seeds_of(order[i]), ", "), names[0],
          fmt::join(seeds_of(order[0]), ", ")));

  nlohmann::json backends = nlohmann::json::array();
  std::vector<std::map<std::string, std::pair<double, double>>> stats; // metric -> (median, spread)
  for (std::size_t bi = 0; bi < order.size(); ++bi) {
    const std::string& b = order[bi];
    nlohmann::json files = nlohmann::json::array();
    nlohmann::json values = nlohmann::json::object();
    std::map<std::string, std::pair<double, double>> st;
    int passes = 0;
    for (const auto* r : groups[b]) {
      files.push_back(r->file);
      if (r->report["summary"].value("au_pass", false))
        ++passes;
    }
    for (const auto& m : metrics()) {
      std::vector<double> v;
      for (const auto* r : groups[b])
        if (r->report.contains(m.where) && r->report[m.where].is_number())
          v.push_back(r->report[m.where].get<double>());
      if (v.empty()) {
        values[m.name] = nullptr;
        continue;
      }
      const auto s = sizing::stats_of(v);
      const double spread =
          v.size() > 1 && s.median != 0 ? (s.max - s.min) / std::fabs(s.median) : std::nan("");
      st[m.name] = {s.median, spread};
      values[m.name] = {
          {"median", s.median},
          {"runs", v.size()},
          {"spread", std::isnan(spread) ? nlohmann::json(nullptr) : nlohmann::json(spread)}};
    }
    backends.push_back({{"backend", names[bi]},
                        {"label", ids[bi].label},
                        {"identity", ids[bi].key()},
                        {"reports", files},
                        {"runs", groups[b].size()},
                        {"au_passes", passes},
                        {"metrics", values}});
    stats.push_back(std::move(st));
  }

  nlohmann::json rows = nlohmann::json::array();
  for (const auto& m : metrics()) {
    nlohmann::json row = {
        {"metric", m.name}, {"unit", m.unit}, {"higher_is_better", m.higher_is_better}};
    nlohmann::json deltas = nlohmann::json::array();
    const auto base = stats[0].find(m.name);
    for (std::size_t i = 0; i < stats.size(); ++i) {
      const auto it = stats[i].find(m.name);
      if (base == stats[0].end() || it == stats[i].end() || base->second.first == 0) {
        deltas.push_back(nullptr);
        continue;
      }
      const double delta = (it->second.first - base->second.first) / std::fabs(base->second.first);
      nlohmann::json d = {{"delta", delta}};
      const double s0 = base->second.second, s1 = it->second.second;
      // A difference counts only when it is larger than the run-to-run spread of both sides.
      d["exceeds_spread"] = std::isnan(s0) || std::isnan(s1)
                                ? nlohmann::json(nullptr)
                                : nlohmann::json(std::fabs(delta) > std::max(s0, s1));
      deltas.push_back(d);
    }
    row["against_first"] = deltas;
    rows.push_back(row);
  }
  return {{"schema", kCompareSchema},
          {"created_at", utc_now()},
          {"tool", tool_json()},
          {"workload", workload_of(first.report)},
          {"accelerator", accelerator_type_of(first.report)},
          {"accelerators", accelerators_of(first.report)},
          {"dataset", dataset_shape(first.report)},
          {"backends", backends},
          {"metrics", rows},
          {"warnings", warnings}};
}

text_table compare_table(const nlohmann::json& c) {
  text_table t;
  t.header.push_back("metric");
  for (const auto& b : c["backends"])
    t.header.push_back(
        fmt::format("{} ({} runs)", b["backend"].get<std::string>(), b["runs"].get<std::size_t>()));
  for (const auto& row : c["metrics"]) {
    const std::string name = row["metric"];
    std::vector<std::string> cells = {fmt::format("{} ({})", name, row["unit"].get<std::string>())};
    for (std::size_t i = 0; i < c["backends"].size(); ++i) {
      const auto& v = c["backends"][i]["metrics"][name];
      if (v.is_null()) {
        cells.push_back("–");
        continue;
      }
      double med = v["median"].get<double>();
      std::string cell = row["unit"] == "bytes/s"
                             ? fmt::format("{:.1f} MB/s ({:.1f} MiB/s)", med / 1e6, med / 1048576.0)
                         : row["unit"] == "s" ? fmt::format("{:.3f} ms", med * 1e3)
                                              : fmt::format("{:.4g}", med);
      if (!v["spread"].is_null())
        cell += fmt::format(" ±{:.1f} %", 50 * v["spread"].get<double>());
      const auto& d = row["against_first"][i];
      if (i > 0 && !d.is_null()) {
        cell += fmt::format(", {:+.1f} %", 100 * d["delta"].get<double>());
        if (d["exceeds_spread"].is_boolean())
          cell += d["exceeds_spread"].get<bool>() ? " (beyond spread)" : " (within spread)";
      }
      cells.push_back(cell);
    }
    t.rows.push_back(cells);
  }
  std::vector<std::string> pass = {"AU pass"};
  for (const auto& b : c["backends"])
    pass.push_back(
        fmt::format("{} of {} runs", b["au_passes"].get<int>(), b["runs"].get<std::size_t>()));
  t.rows.push_back(pass);
  return t;
}

std::string compare_markdown(const nlohmann::json& c) {
  std::string out =
      fmt::format("# {} on {} × {}: backend comparison\n\nDataset: {}.\n\n",
                  c["workload"].get<std::string>(), c["accelerators"].get<int>(),
                  c["accelerator"].get<std::string>(), c["dataset"].get<std::string>());
  out += markdown_table(compare_table(c)) + "\n";
  for (const auto& b : c["backends"])
    out += fmt::format("- {}: AU pass in {} of {} runs; reports: {}\n",
                       b["backend"].get<std::string>(), b["au_passes"].get<int>(),
                       b["runs"].get<std::size_t>(), fmt::join(b["reports"], ", "));
  for (const auto& w : c["warnings"])
    out += fmt::format("- warning: {}\n", w.get<std::string>());
  return out;
}

} // namespace dlsize::report
