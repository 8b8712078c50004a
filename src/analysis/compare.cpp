#include "analysis/compare.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "analysis/checkpoint_sizing.hpp"
#include "analysis/point_validity.hpp"
#include "analysis/stats.hpp"
#include "analysis/welch.hpp"
#include "core/error.hpp"
#include "report/backend_identity.hpp"
#include "report/bench_report.hpp"
#include "report/limit_verdict.hpp"
#include "report/report_io.hpp"
#include "report/run_identity.hpp"

namespace dlsize::analysis {

using namespace report; // the report envelope, identity and fields
namespace {

// What a comparison lines up, the report's figure for it (NaN when absent), and which
// direction is better.
struct metric {
  const char* name;
  const char* unit;
  double (*of)(const bench_report&);
  bool higher_is_better;
};

const summary_section& summary_of(const bench_report& r) {
  return or_empty(r.summary);
}

const latency_summary& latency_of(const bench_report& r) {
  return or_empty(or_empty(r.io).latency);
}

const std::vector<metric>& metrics() {
  using num = bench_report;
  static const std::vector<metric> m = {
      {"samples_per_s", "samples/s",
       [](const bench_report& r) { return num::number(summary_of(r).samples_per_s); }, true},
      {"samples_per_s_per_accelerator", "samples/s",
       [](const bench_report& r) {
         return num::number(summary_of(r).samples_per_s_per_accelerator);
       },
       true},
      {"accelerator_utilization", "fraction",
       [](const bench_report& r) { return num::number(summary_of(r).accelerator_utilization); },
       true},
      {"read_bytes_per_s", "bytes/s",
       [](const bench_report& r) { return num::number(summary_of(r).read_bytes_per_s); }, true},
      {"latency_p50_s", "s", [](const bench_report& r) { return num::number(latency_of(r).p50_s); },
       false},
      {"latency_p90_s", "s", [](const bench_report& r) { return num::number(latency_of(r).p90_s); },
       false},
      {"latency_p99_s", "s", [](const bench_report& r) { return num::number(latency_of(r).p99_s); },
       false},
      {"data_wait_p99_s", "s",
       [](const bench_report& r) { return num::number(or_empty(summary_of(r).data_wait).p99_s); },
       false},
      {"cpu_process", "cores",
       [](const bench_report& r) {
         return num::number(or_empty(summary_of(r).cpu_utilization).process);
       },
       false},
  };
  return m;
}

void check_same_load(const loaded_report& first, const loaded_report& other,
                     std::vector<std::string>& warnings) {
  const bench_report& a = first.fields;
  const bench_report& b = other.fields;
  if (workload_of(a) != workload_of(b) || accelerator_type_of(a) != accelerator_type_of(b))
    throw usage_error(
        fmt::format("compare: {} runs {} on {}, but {} runs {} on {}: not the same load. "
                    "valid: reports of one workload and accelerator type (counts are lined up)",
                    other.file, workload_of(b), accelerator_type_of(b), first.file, workload_of(a),
                    accelerator_type_of(a)));
  if (dataset_shape(a) != dataset_shape(b))
    throw usage_error(
        fmt::format("compare: the dataset of {} has {}, that of {} has {}: not the same "
                    "load. valid: the same dataset (same datagen options) on each backend",
                    other.file, dataset_shape(b), first.file, dataset_shape(a)));
  const auto id = [](const loaded_report& r) {
    return or_empty(r.typed->dataset).dataset_id.value_or("");
  };
  if (id(first) != id(other))
    warnings.push_back(
        fmt::format("datasets of the same shape but other contents (dataset_id {} in {}, {} in {})",
                    id(first), first.file, id(other), other.file));
  std::set<std::string> may_differ = backend_settings();
  may_differ.insert({"accelerators", "label"});
  for (const auto& w : setting_differences(a, first.file, b, other.file, may_differ))
    if (std::find(warnings.begin(), warnings.end(), w) == warnings.end())
      warnings.push_back(w);
}

bool is_latency(const metric& m) {
  return std::string(m.name).rfind("latency_", 0) == 0;
}

// Whether a run's reads went through --max-read-rate: its latencies are the token bucket's,
// lower than the real storage's, not a property of any backend.
bool capped(const loaded_report& r) {
  return std::isfinite(bench_report::number(or_empty(r.typed->io).max_read_rate));
}

// MLPerf Storage's rules over a backend's runs at one accelerator count (a point).
point_validity point_validity_of(const std::vector<const loaded_report*>& reports,
                                 report::rules_edition edition) {
  std::vector<point_run> runs;
  for (const auto* r : reports)
    runs.push_back(point_run_of(*r, edition));
  return judge_point(runs, "dlsize compare", edition);
}

using metric_stats = std::map<std::string, std::pair<double, double>>; // median, spread

// Per metric, each backend's delta against the first, whether it exceeds both spreads, and
// which way that is.
std::vector<compare_metric_row> delta_rows(const std::vector<metric_stats>& stats) {
  std::vector<compare_metric_row> rows;
  for (const auto& m : metrics()) {
    compare_metric_row row{m.name, m.unit, m.higher_is_better, {}};
    const auto base = stats[0].find(m.name);
    for (std::size_t i = 0; i < stats.size(); ++i) {
      const auto it = stats[i].find(m.name);
      if (base == stats[0].end() || it == stats[i].end() || base->second.first == 0) {
        row.against_first.emplace_back();
        continue;
      }
      metric_delta d;
      d.delta = (it->second.first - base->second.first) / std::fabs(base->second.first);
      const double s0 = base->second.second, s1 = it->second.second;
      // A difference counts only when it is larger than the run-to-run spread of both sides.
      if (!std::isnan(s0) && !std::isnan(s1))
        d.exceeds_spread = std::fabs(d.delta) > std::max(s0, s1);
      d.verdict = i == 0 || !d.exceeds_spread           ? delta_verdict::not_known
                  : !*d.exceeds_spread                  ? delta_verdict::within_spread
                  : (d.delta > 0) == m.higher_is_better ? delta_verdict::better
                                                        : delta_verdict::worse;
      row.against_first.push_back(d);
    }
    rows.push_back(row);
  }
  return rows;
}

// The runs of one accelerator count grouped by backend, in order of first appearance. Runs of
// one load spread differently over nodes and ranks (scale-up against scale-out) are told apart
// by their topology.
struct backend_groups {
  std::vector<std::string> order; // group keys: backend identity and topology
  std::vector<backend_identity> ids;
  std::vector<std::string> names; // as the tables show them
  std::map<std::string, std::vector<const loaded_report*>> runs;
};

backend_groups group_by_backend(const std::vector<const loaded_report*>& reports) {
  std::set<std::string> shapes;
  for (const auto* r : reports)
    shapes.insert(topology_label(r->fields));
  const auto shape_of = [&](const bench_report& rep) {
    return shapes.size() > 1 ? ", " + topology_label(rep) : std::string();
  };
  backend_groups g;
  for (const auto* r : reports) {
    const backend_identity id = backend_identity_of(r->fields);
    const std::string key = id.key() + shape_of(r->fields);
    if (!g.runs.count(key)) {
      g.order.push_back(key);
      g.ids.push_back(id);
    }
    g.runs[key].push_back(r);
  }
  g.names = distinct_names(g.ids);
  for (std::size_t i = 0; i < g.order.size(); ++i)
    g.names[i] += shape_of(g.runs[g.order[i]].front()->fields);
  return g;
}

// Repeats take a new seed each (as MLPerf Storage asks); backends should see the same seeds.
void warn_on_seeds(backend_groups& g, std::uint64_t count, std::vector<std::string>& warnings) {
  auto seeds_of = [&](const std::string& b) {
    std::vector<std::string> s;
    for (const auto* r : g.runs[b])
      s.push_back(text_of(r->typed->option("seed")));
    std::sort(s.begin(), s.end());
    return s;
  };
  for (std::size_t i = 1; i < g.order.size(); ++i)
    if (seeds_of(g.order[i]) != seeds_of(g.order[0]))
      warnings.push_back(fmt::format(
          "at {} accelerators the runs of {} used seeds {}, those of {} seeds {}: the loads are "
          "not identical",
          count, g.names[i], fmt::join(seeds_of(g.order[i]), ", "), g.names[0],
          fmt::join(seeds_of(g.order[0]), ", ")));
}

// One backend's metrics over its runs: each metric's median and spread (kept in `stats` for
// the deltas), and its samples/s per run (for the ratio against the first backend).
std::vector<backend_metric> metric_values(const std::vector<const loaded_report*>& runs,
                                          bool synthetic, metric_stats& stats,
                                          std::vector<double>& samples_per_s) {
  std::vector<backend_metric> values;
  for (const auto& m : metrics()) {
    std::vector<double> v;
    for (const auto* r : runs)
      if (const double x = m.of(*r->typed); !std::isnan(x))
        v.push_back(x);
    if (std::string(m.name) == "samples_per_s")
      samples_per_s = v;
    values.push_back({m.name, std::nullopt});
    if (v.empty())
      continue;
    const auto s = analysis::stats_of(v);
    const double spread =
        v.size() > 1 && s.median != 0 ? (s.max - s.min) / std::fabs(s.median) : std::nan("");
    stats[m.name] = {s.median, spread};
    values.back().value = metric_figures{
        s.median, v.size(), std::isnan(spread) ? std::nullopt : std::optional<double>(spread),
        synthetic && is_latency(m)};
  }
  return values;
}

compare_backend backend_of(const backend_groups& g, std::size_t bi, report::rules_edition edition,
                           metric_stats& stats, std::vector<double>& samples_per_s) {
  const auto& runs = g.runs.at(g.order[bi]);
  compare_backend b;
  b.backend = g.names[bi];
  b.label = g.ids[bi].label;
  b.identity = g.ids[bi].key();
  for (const auto* r : runs) {
    b.reports.push_back(r->file);
    if (summary_of(*r->typed).au_pass.value_or(false))
      ++b.au_passes;
    b.synthetic_latency = b.synthetic_latency || capped(*r);
    ++b.limited_by[report::limit_of(*r->typed).kind];
  }
  b.metrics = metric_values(runs, b.synthetic_latency, stats, samples_per_s);
  b.mlperf_validity = point_validity_of(runs, edition);
  return b;
}

// The winner on samples/s against the first backend, with Welch's interval on the logs.
std::vector<ratio_against_first>
against_first(const std::vector<std::string>& names,
              const std::vector<std::vector<double>>& samples_per_s) {
  std::vector<ratio_against_first> against;
  for (std::size_t i = 0; i < names.size(); ++i) {
    const auto r = analysis::welch_ratio(samples_per_s[0], samples_per_s[i]);
    against.push_back(
        {names[i], r, analysis::ratio_text(r, samples_per_s[0].size(), samples_per_s[i].size())});
  }
  return against;
}

// The runs of one accelerator count, backend by backend.
compare_section compare_count(const std::vector<const loaded_report*>& reports,
                              report::rules_edition edition, std::vector<std::string>& warnings) {
  backend_groups g = group_by_backend(reports);
  compare_section s;
  s.accelerators = accelerators_of(reports.front()->fields);
  warn_on_seeds(g, s.accelerators, warnings);
  std::vector<metric_stats> stats(g.order.size());
  std::vector<std::vector<double>> samples_per_s(g.order.size());
  for (std::size_t bi = 0; bi < g.order.size(); ++bi)
    s.backends.push_back(backend_of(g, bi, edition, stats[bi], samples_per_s[bi]));
  s.metrics = delta_rows(stats);
  s.samples_per_s_against_first = against_first(g.names, samples_per_s);
  return s;
}

// Checkpoint reports alone: no training run to line up by accelerators; add_sizing adds each
// backend's goodput, which is then the whole comparison.
compare_document checkpoints_only(const std::vector<loaded_report>& reports) {
  compare_document d;
  d.created_at = utc_now();
  d.tool = tool_json();
  d.workload = workload_of(reports.front().fields);
  d.accelerator = accelerator_type_of(reports.front().fields);
  d.dataset = "none: checkpoint reports only";
  return d;
}

} // namespace

compare_document compare_reports(const std::vector<loaded_report>& given,
                                 report::rules_edition edition) {
  const std::vector<loaded_report> reports = typed_reports(given);
  if (reports.size() < 2)
    throw usage_error("compare: give at least two reports");
  refuse_duplicate_runs(reports);
  // Checkpoint reports are compared by their goodput (add_sizing), not beside training runs.
  std::vector<const loaded_report*> runs;
  for (const auto& r : reports) {
    if (is_checkpoint_report(r.report))
      continue;
    if (!r.typed)
      throw usage_error(fmt::format("{}: not a dlsize bench report (schema {}). valid: reports "
                                    "written by dlsize bench --out or dlsize checkpoint --out",
                                    r.file, kReportSchema));
    runs.push_back(&r);
  }
  if (runs.empty())
    return checkpoints_only(reports);
  compare_document d;
  // Incomplete runs are listed and left out: their medians would describe no backend.
  std::vector<const loaded_report*> kept;
  for (const auto* rp : runs) {
    const loaded_report& r = *rp;
    if (r.typed->complete()) {
      kept.push_back(&r);
      continue;
    }
    d.left_out.push_back({r.file, fmt::format("status {}: {}", r.typed->status_text(),
                                              r.typed->reason.value_or(""))});
  }
  if (kept.size() < 2)
    throw usage_error(fmt::format("compare: {} complete bench reports of {}; at least two are "
                                  "needed (incomplete reports are left out; checkpoint reports "
                                  "add their goodput to bench reports, size takes them alone)",
                                  kept.size(), runs.size()));
  const auto& first = *kept.front();
  for (const auto& l : d.left_out)
    d.warnings.push_back(fmt::format("{} left out: {}", l.file, l.reason));
  for (std::size_t i = 1; i < kept.size(); ++i)
    check_same_load(first, *kept[i], d.warnings);

  // Equal accelerator counts are lined up; the headline is the largest count that the most
  // backends share.
  std::map<std::uint64_t, std::vector<const loaded_report*>> by_count;
  for (const auto* r : kept)
    by_count[accelerators_of(r->fields)].push_back(r);
  std::size_t most = 0;
  for (const auto& [n, group] : by_count) {
    d.sections.push_back(compare_count(group, edition, d.warnings));
    const std::size_t b = d.sections.back().backends.size();
    if (b >= most) {
      most = b;
      d.headline = d.sections.size() - 1;
    }
  }
  if (most < 2)
    d.warnings.push_back("no accelerator count has two backends: this compares repeats of one run");
  for (const auto& b : d.head().backends)
    if (b.synthetic_latency)
      d.warnings.push_back(fmt::format("{}: request latency is the --max-read-rate token bucket's, "
                                       "lower than the storage's; it is no backend's property",
                                       b.backend));
  d.created_at = utc_now();
  d.tool = tool_json();
  d.workload = workload_of(first.fields);
  d.accelerator = accelerator_type_of(first.fields);
  d.dataset = dataset_shape(first.fields);
  return d;
}

void add_sizing(compare_document& c, const report_inputs& in, const sizing_request& req,
                const nlohmann::json& command_line) {
  try {
    c.sizing = make_sizing(in, req, command_line);
    c.goodput = c.sizing->goodput;
    if (c.sizing->answers.empty()) {
      c.sizing_note = "no training run among the reports: nothing to size";
      c.sizing.reset();
    }
  } catch (const usage_error& e) {
    c.sizing_note = e.what();
  }
  if (c.sections.empty() && c.goodput.empty())
    throw usage_error("compare: the checkpoint reports give no goodput to compare. valid: "
                      "complete reports of dlsize checkpoint that wrote a checkpoint of a "
                      "workload with a checkpoint profile (" +
                      c.sizing_note + ")");
  if (c.sections.empty() && c.goodput.size() < 2)
    c.warnings.push_back("one backend among the checkpoint reports: nothing to compare it with");
}

} // namespace dlsize::analysis
