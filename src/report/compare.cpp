#include "report/compare.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include <fmt/format.h>

#include "core/error.hpp"
#include "report/report_io.hpp"

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
      {"samples_per_s_per_accelerator", "samples/s", ptr("/summary/samples_per_s_per_accelerator"), true},
      {"accelerator_utilization", "fraction", ptr("/summary/accelerator_utilization"), true},
      {"read_bytes_per_s", "bytes/s", ptr("/summary/read_bytes_per_s"), true},
      {"latency_p50_s", "s", ptr("/io/latency/p50_s"), false},
      {"latency_p99_s", "s", ptr("/io/latency/p99_s"), false},
      {"data_wait_p99_s", "s", ptr("/summary/data_wait/p99_s"), false},
      {"cpu_process", "cores", ptr("/summary/cpu_utilization/process"), false},
  };
  return m;
}

// Settings that may differ between backends without changing the load.
bool backend_key(const std::string& k) {
  return k == "dataset" || k == "out" || k == "generate" || k == "quiet" || k == "max-read-rate" ||
         k == "config" || k == "sample-interval" || k == "seed";
}

std::string backend_of(const nlohmann::json& r) {
  const auto& d = r.value("dataset", nlohmann::json::object());
  std::string label = fmt::format("{} ({})", d.value("path", "?"), d.value("fs_type", "?"));
  const auto& cap = r["io"].value("max_read_rate", nlohmann::json(nullptr));
  if (cap.is_number()) label += fmt::format(", capped at {:.1f} MB/s", cap.get<double>() / 1e6);
  return label;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string text_of(const nlohmann::json& j) { return j.is_string() ? j.get<std::string>() : j.dump(); }

}  // namespace

nlohmann::json compare_reports(const std::vector<loaded_report>& reports) {
  if (reports.size() < 2) throw usage_error("compare: give at least two reports");
  for (const auto& r : reports)
    if (r.report.value("schema", "") != kReportSchema || r.report.value("kind", "") != "bench")
      throw usage_error(fmt::format("{}: not a dlsize bench report (schema {}). valid: reports written by dlsize bench --out",
                                    r.file, kReportSchema));
  const auto& first = reports.front();
  auto load_of = [](const nlohmann::json& r) {
    return std::make_tuple(r["workload"].value("name", ""),
                           r["workload"].contains("accelerator") ? r["workload"]["accelerator"].value("type", "") : std::string("none"),
                           r["topology"].value("accelerators", 0));
  };
  nlohmann::json warnings = nlohmann::json::array();
  for (std::size_t i = 1; i < reports.size(); ++i) {
    const auto [w0, a0, n0] = load_of(first.report);
    const auto [w, a, n] = load_of(reports[i].report);
    if (w != w0 || a != a0 || n != n0)
      throw usage_error(fmt::format("compare: {} runs {} on {} × {}, but {} runs {} on {} × {}: not the same load. "
                                    "valid: reports of one workload, accelerator type and count",
                                    reports[i].file, w, n, a, first.file, w0, n0, a0));
    for (const auto& [k, v] : first.report["config"].items()) {
      if (backend_key(k)) continue;
      const auto& other = reports[i].report["config"].value(k, nlohmann::json(nullptr));
      if (other != v)
        warnings.push_back(fmt::format("{} differs: {} in {}, {} in {}", k, text_of(v), first.file, text_of(other),
                                       reports[i].file));
    }
    if (first.report["dataset"].value("samples", 0) != reports[i].report["dataset"].value("samples", 0))
      warnings.push_back(fmt::format("dataset shapes differ: {} samples in {}, {} in {}",
                                     first.report["dataset"].value("samples", 0), first.file,
                                     reports[i].report["dataset"].value("samples", 0), reports[i].file));
    if (reports[i].report.value("status", "") != "complete")
      warnings.push_back(fmt::format("{} is {}", reports[i].file, reports[i].report.value("status", "?")));
  }
  if (first.report.value("status", "") != "complete") warnings.push_back(fmt::format("{} is {}", first.file, first.report.value("status", "?")));

  // Backends in order of first appearance.
  std::vector<std::string> order;
  std::map<std::string, std::vector<const loaded_report*>> groups;
  for (const auto& r : reports) {
    const std::string b = backend_of(r.report);
    if (!groups.count(b)) order.push_back(b);
    groups[b].push_back(&r);
  }
  if (order.size() < 2) warnings.push_back("every report has the same backend: this compares repeats of one run");
  // Repeats take a new seed each (as MLPerf Storage asks); backends should see the same seeds.
  auto seeds_of = [&](const std::string& b) {
    std::vector<std::string> s;
    for (const auto* r : groups[b]) s.push_back(text_of(r->report["config"].value("seed", nlohmann::json(nullptr))));
    std::sort(s.begin(), s.end());
    return s;
  };
  for (std::size_t i = 1; i < order.size(); ++i)
    if (seeds_of(order[i]) != seeds_of(order[0]))
      warnings.push_back(fmt::format("the runs of {} used seeds {}, those of {} seeds {}: the loads are not identical",
                                     order[i], fmt::join(seeds_of(order[i]), ", "), order[0], fmt::join(seeds_of(order[0]), ", ")));

  nlohmann::json backends = nlohmann::json::array();
  std::vector<std::map<std::string, std::pair<double, double>>> stats;  // metric -> (median, spread)
  for (const auto& b : order) {
    nlohmann::json files = nlohmann::json::array();
    nlohmann::json values = nlohmann::json::object();
    std::map<std::string, std::pair<double, double>> st;
    int passes = 0;
    for (const auto* r : groups[b]) {
      files.push_back(r->file);
      if (r->report["summary"].value("au_pass", false)) ++passes;
    }
    for (const auto& m : metrics()) {
      std::vector<double> v;
      for (const auto* r : groups[b])
        if (r->report.contains(m.where) && r->report[m.where].is_number()) v.push_back(r->report[m.where].get<double>());
      if (v.empty()) {
        values[m.name] = nullptr;
        continue;
      }
      const double med = median(v);
      const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
      const double spread = v.size() > 1 && med != 0 ? (*hi - *lo) / std::fabs(med) : std::nan("");
      st[m.name] = {med, spread};
      values[m.name] = {{"median", med}, {"runs", v.size()}, {"spread", std::isnan(spread) ? nlohmann::json(nullptr) : nlohmann::json(spread)}};
    }
    backends.push_back({{"backend", b}, {"reports", files}, {"runs", groups[b].size()}, {"au_passes", passes}, {"metrics", values}});
    stats.push_back(std::move(st));
  }

  nlohmann::json rows = nlohmann::json::array();
  for (const auto& m : metrics()) {
    nlohmann::json row = {{"metric", m.name}, {"unit", m.unit}, {"higher_is_better", m.higher_is_better}};
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
      d["exceeds_spread"] = std::isnan(s0) || std::isnan(s1) ? nlohmann::json(nullptr)
                                                             : nlohmann::json(std::fabs(delta) > std::max(s0, s1));
      deltas.push_back(d);
    }
    row["against_first"] = deltas;
    rows.push_back(row);
  }
  return {{"schema", kCompareSchema}, {"created_at", utc_now()}, {"tool", tool_json()},
          {"workload", std::get<0>(load_of(first.report))},
          {"accelerator", std::get<1>(load_of(first.report))},
          {"accelerators", std::get<2>(load_of(first.report))},
          {"backends", backends}, {"metrics", rows}, {"warnings", warnings}};
}

std::string compare_markdown(const nlohmann::json& c) {
  std::string out = fmt::format("# {} on {} × {}: backend comparison\n\n", c["workload"].get<std::string>(),
                                c["accelerators"].get<int>(), c["accelerator"].get<std::string>());
  out += "| metric |";
  for (const auto& b : c["backends"]) out += fmt::format(" {} ({} runs) |", b["backend"].get<std::string>(), b["runs"].get<std::size_t>());
  out += "\n|---|";
  for (std::size_t i = 0; i < c["backends"].size(); ++i) out += "---|";
  out += "\n";
  for (const auto& row : c["metrics"]) {
    const std::string name = row["metric"];
    out += fmt::format("| {} ({}) |", name, row["unit"].get<std::string>());
    for (std::size_t i = 0; i < c["backends"].size(); ++i) {
      const auto& v = c["backends"][i]["metrics"][name];
      if (v.is_null()) {
        out += " – |";
        continue;
      }
      double med = v["median"].get<double>();
      std::string cell = row["unit"] == "bytes/s" ? fmt::format("{:.1f} MB/s ({:.1f} MiB/s)", med / 1e6, med / 1048576.0)
                         : row["unit"] == "s"     ? fmt::format("{:.3f} ms", med * 1e3)
                                                  : fmt::format("{:.4g}", med);
      if (!v["spread"].is_null()) cell += fmt::format(" ±{:.1f} %", 50 * v["spread"].get<double>());
      const auto& d = row["against_first"][i];
      if (i > 0 && !d.is_null()) {
        cell += fmt::format(", {:+.1f} %", 100 * d["delta"].get<double>());
        if (d["exceeds_spread"].is_boolean()) cell += d["exceeds_spread"].get<bool>() ? " (beyond spread)" : " (within spread)";
      }
      out += " " + cell + " |";
    }
    out += "\n";
  }
  out += "\n";
  for (const auto& b : c["backends"])
    out += fmt::format("- {}: AU pass in {} of {} runs; reports: {}\n", b["backend"].get<std::string>(),
                       b["au_passes"].get<int>(), b["runs"].get<std::size_t>(), fmt::join(b["reports"], ", "));
  for (const auto& w : c["warnings"]) out += fmt::format("- warning: {}\n", w.get<std::string>());
  return out;
}

}  // namespace dlsize::report
