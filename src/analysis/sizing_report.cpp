#include "analysis/sizing_report.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "dlsize/build_config.hpp"

#include "analysis/cache_sweep.hpp"
#include "analysis/checkpoint_sizing.hpp"
#include "analysis/goodput_evidence.hpp"
#include "analysis/layouts.hpp"
#include "analysis/object_sizing.hpp"
#include "analysis/point_validity.hpp"
#include "analysis/requirement.hpp"
#include "analysis/scaling_model.hpp"
#include "analysis/size_scaling.hpp"
#include "analysis/stats.hpp"
#include "core/defaults.hpp"
#include "core/error.hpp"
#include "core/units.hpp"
#include "report/backend_identity.hpp"
#include "report/bench_report.hpp"
#include "report/limit_verdict.hpp"
#include "report/report_io.hpp"
#include "report/run_identity.hpp"

namespace dlsize::analysis {

using namespace report; // the report envelope, identity and fields
namespace {

using report::or_empty;
constexpr auto number = [](const auto& f) { return bench_report::number(f); };

// The reports of one series, in input order.
struct series {
  std::string workload, accelerator, backend, cache_mode;
  backend_identity identity;
  double dataset_bytes = 0;
  std::vector<const loaded_report*> reports;
};

std::string command_text(const nlohmann::json& argv) {
  std::string out;
  for (const auto& a : argv) {
    const std::string s = a.is_string() ? a.get<std::string>() : a.dump();
    out += (out.empty() ? "" : " ") +
           (s.find_first_of(" '\"") == std::string::npos ? s : "'" + s + "'");
  }
  return out;
}

// The modelled efficiency over the measured counts and the targets, beside the measured one.
sizing_scaling scaling_of(const analysis::scaling_inputs& in, const analysis::scaling_analysis& a,
                          const sizing_request& req) {
  std::vector<double> counts = req.targets;
  for (const auto& row : a.counts)
    counts.push_back(row.accelerators);
  sizing_scaling out = analysis::scaling_section(in, counts);
  for (auto& point : out.curve)
    for (const auto& row : a.counts)
      if (row.accelerators == static_cast<double>(point.accelerators))
        point.measured_scaling_efficiency = row.scaling_efficiency;
  return out;
}

// Per accelerator count, its figures and the MLPerf Storage verdict on its runs (a point: one
// backend, load and count).
std::vector<sizing_point> measured_of(const series& s, const analysis::scaling_analysis& a,
                                      report::rules_edition edition) {
  std::vector<sizing_point> measured;
  for (const auto& row : a.counts) {
    std::vector<point_run> runs;
    for (const auto* lr : s.reports)
      if (static_cast<double>(accelerators_of(lr->fields)) == row.accelerators)
        runs.push_back(point_run_of(*lr, edition));
    measured.push_back({row, judge_point(runs, "dlsize size", edition)});
  }
  return measured;
}

// What a series' reports measured: one point per run, and the medians' inputs.
struct series_measurements {
  std::vector<analysis::run_point> runs;
  std::vector<double> thresholds, demands, hits, ram, nodes, sample_bytes;
  std::vector<analysis::recorded_report> recorded;
  std::vector<std::string> warnings;
};

analysis::run_point run_point_of(const loaded_report& lr) {
  const bench_report& t = *lr.typed;
  const auto& sm = or_empty(t.summary);
  analysis::run_point p;
  p.file = lr.file;
  p.accelerators = static_cast<double>(accelerators_of(t));
  p.read_bytes_per_s = number(sm.read_bytes_per_s);
  p.samples_per_s = number(sm.samples_per_s);
  p.samples_per_s_per_accelerator = number(sm.samples_per_s_per_accelerator);
  p.accelerator_utilization = number(sm.accelerator_utilization);
  p.storage_au = number(sm.storage_au);
  const auto& tp = or_empty(t.topology);
  const double declared =
      tp.declared.has_value() ? report::bench_report::number(tp.declared->nodes) : 0.0;
  p.nodes = declared > 0 ? declared : std::max(1.0, number(tp.nodes));
  p.declared_nodes = declared > 0;
  p.au_pass = sm.au_pass.value_or(false);
  p.hit_ratio = number(or_empty(t.storage).hit_ratio);
  p.limit = report::limit_of(t).kind;
  return p;
}

// Every run of the series, with a warning for each setting that differs from the first run's.
series_measurements measure(const series& s) {
  series_measurements m;
  const auto& first = *s.reports.front();
  std::set<std::string> may_differ = backend_settings();
  may_differ.insert({"accelerators", "accelerators-per-rank"});
  for (const auto* lr : s.reports) {
    const bench_report& t = *lr->typed;
    const analysis::run_point p = run_point_of(*lr);
    m.recorded.push_back({lr->file, &lr->fields});
    m.runs.push_back(p);
    m.thresholds.push_back(number(or_empty(t.summary).au_threshold));
    m.demands.push_back(number(or_empty(t.summary).demand_bytes_per_s_per_accelerator));
    m.hits.push_back(p.hit_ratio);
    m.ram.push_back(number(or_empty(t.dataset).client_ram_bytes));
    m.nodes.push_back(number(or_empty(t.topology).nodes));
    m.sample_bytes.push_back(number(or_empty(t.workload).mean_sample_bytes));
    if (lr != &first)
      for (const auto& w : setting_differences(first.fields, first.file, t, lr->file, may_differ))
        m.warnings.push_back(w);
  }
  return m;
}

// The AU threshold the series is judged at: the runs' median, with a warning when they differ.
double series_threshold(const std::vector<double>& thresholds, std::vector<std::string>& warnings) {
  const auto th = analysis::stats_of(thresholds);
  const double threshold = std::isfinite(th.median) ? th.median : core::defaults::au_threshold;
  if (th.count && th.min != th.max)
    warnings.push_back(
        fmt::format("the runs' AU thresholds differ ({} to {}); the median {} is used", th.min,
                    th.max, threshold));
  return threshold;
}

// The physical cap on what the clients can read (the NICs, the storage front end; the lower of
// them), and where it comes from; 0 when none is given.
void set_physical_limit(const sizing_request& req, analysis::projection_options& po) {
  std::vector<std::string> limits;
  double limit = 0;
  if (req.nic_bandwidth > 0) {
    limit = req.nic_bandwidth * req.nic_efficiency * static_cast<double>(req.clients);
    limits.push_back(fmt::format("NIC {} × {:.0f} % × {} clients",
                                 units::format_rate_both(req.nic_bandwidth),
                                 100 * req.nic_efficiency, req.clients));
  }
  if (req.front_end_bandwidth > 0) {
    limit = limit > 0 ? std::min(limit, req.front_end_bandwidth) : req.front_end_bandwidth;
    limits.push_back(
        fmt::format("storage front end {}", units::format_rate_both(req.front_end_bandwidth)));
  }
  po.limit_bytes_per_s = limit;
  po.limit_source = fmt::format("{}", fmt::join(limits, ", the lower of "));
}

// The cache in front of the storage the projections assume, and where its size comes from.
std::string set_cache_bytes(const series& s, const sizing_request& req,
                            const series_measurements& m, analysis::projection_options& po) {
  const double client_ram = analysis::median(m.ram);
  const double clients = std::isfinite(analysis::median(m.nodes)) ? analysis::median(m.nodes) : 1;
  if (req.cache_bytes >= 0) {
    po.cache_bytes = req.cache_bytes;
    return "--client-ram × --clients";
  }
  if (s.cache_mode == "buffered" && std::isfinite(client_ram)) {
    po.cache_bytes = client_ram * clients;
    return fmt::format("the page cache: the clients' RAM in the reports ({} × {})",
                       units::format_bytes_binary(client_ram), clients);
  }
  po.cache_bytes = 0;
  return fmt::format("none: {} reads bypass the page cache", s.cache_mode);
}

std::vector<sizing_run> runs_of(const series& s, const series_measurements& m,
                                const analysis::scaling_analysis& a) {
  std::vector<sizing_run> out;
  for (std::size_t i = 0; i < m.runs.size(); ++i) {
    const auto& p = m.runs[i];
    sizing_run r{p, s.reports[i]->typed->option("seed"), std::nullopt, std::nullopt,
                 command_text(s.reports[i]->typed->command_line.value_or({}))};
    if (a.line) {
      r.fitted = a.line->predict(p.accelerators);
      r.residual = a.line->residuals[i];
    }
    out.push_back(std::move(r));
  }
  return out;
}

// The count the ceiling supports at the threshold, never below a count that passed.
std::optional<std::uint64_t> modelled_max(const analysis::scaling_analysis& a, double demand,
                                          const analysis::projection_options& po) {
  if (!a.ceiling) // the ceiling is in reads: no cache to take off
    return std::nullopt;
  std::uint64_t modelled = analysis::max_accelerators_at_threshold(
      po.requirement ? *po.requirement : a, *a.ceiling, 0, demand, po.efficiency);
  // A count that passed is carried, whatever the model says.
  if (a.most_passing)
    modelled = std::max(modelled, static_cast<std::uint64_t>(*a.most_passing));
  return modelled;
}

// What the fit says: the knee at the threshold, the ceiling, the counts it supports, and the
// requirement's line.
sizing_limits limits_of(const analysis::scaling_analysis& a, double demand,
                        const analysis::projection_options& po) {
  sizing_limits l;
  l.first_below_accelerators = a.au_knee;
  l.most_passing_accelerators = a.most_passing;
  l.ceiling_bytes_per_s = a.ceiling;
  l.best_measured_bytes_per_s = a.best_bytes_per_s;
  l.ceiling_lower_bound = a.ceiling_lower_bound;
  l.ceiling_source = a.ceiling ? a.ceiling_source
                               : "storage never limited AU: the backend was not saturated; it "
                                 "delivers at least the best measured bandwidth";
  l.storage_limited_runs = a.storage_limited_runs;
  l.client_limited_runs = a.client_limited_runs;
  l.modelled_max_accelerators = modelled_max(a, demand, po);
  l.requirement_basis =
      a.demand_line ? a.demand_basis : "the demand of one accelerator × the count";
  if (a.demand_line)
    l.requirement_fit = *a.demand_line;
  l.repeat_cv = a.repeat_cv;
  l.model_error_cv = a.model_cv;
  return l;
}

// An object store's series (reports with storage.s3): the GETs its runs measured and those the
// targets need at the measured dataset size; null for a series of files.
std::optional<object_sizing> objects_of(const series& s, const series_measurements& m,
                                        const std::vector<analysis::projection>& proj) {
  std::vector<object_run> runs;
  std::size_t without = 0;
  bool any_s3 = false;
  for (std::size_t i = 0; i < s.reports.size(); ++i) {
    const bench_report& t = *s.reports[i]->typed;
    any_s3 |= t.storage && t.storage->s3;
    const bool limited = m.runs[i].limit == report::limit_kind::storage;
    if (auto r = object_run_of(s.reports[i]->file, t, limited))
      runs.push_back(std::move(*r));
    else
      ++without;
  }
  if (!any_s3)
    return std::nullopt;
  std::vector<std::pair<double, double>> targets;
  for (const auto& p : proj)
    if (p.growth == 1)
      targets.emplace_back(p.accelerators, p.required);
  return size_objects(std::move(runs), without, targets);
}

// Every run of every series as evidence for its load's requirement.
std::vector<requirement_run> requirement_runs(const std::vector<series>& groups) {
  std::vector<requirement_run> out;
  for (const auto& g : groups)
    for (const auto* lr : g.reports) {
      const bench_report& t = *lr->typed;
      const auto& sm = or_empty(t.summary);
      const auto& w = or_empty(t.workload);
      requirement_run r;
      r.point = run_point_of(*lr);
      r.workload = g.workload;
      r.accelerator = g.accelerator;
      r.backend = g.backend;
      r.planned_per_accelerator = number(sm.demand_bytes_per_s_per_accelerator);
      r.au_threshold = number(sm.au_threshold);
      const double samples = static_cast<double>(sm.samples.value_or(0));
      if (samples > 0)
        r.bytes_per_sample = static_cast<double>(sm.read_bytes.value_or(0)) / samples;
      r.profile_sample_bytes = number(w.mean_sample_bytes);
      if (w.accelerator) {
        r.compute_time_s = number(w.accelerator->compute_time_s);
        const double batch = static_cast<double>(w.accelerator->batch_size.value_or(0));
        if (r.planned_per_accelerator > 0)
          r.profile_compute_time_s = batch * r.profile_sample_bytes / r.planned_per_accelerator;
      }
      out.push_back(std::move(r));
    }
  return out;
}

// One series of the sizing report: its runs, the fit and knee, the ceiling and the projections,
// the requirement taken from its load's (pooled over the backends).
sizing_series analyse(const series& s, const sizing_request& req, const cache_choice& cache,
                      const std::vector<workload_requirement>& requirements,
                      std::vector<std::string>& reproduce) {
  series_measurements m = measure(s);
  sizing_series out;
  out.warnings = std::move(m.warnings);
  const double threshold = series_threshold(m.thresholds, out.warnings);
  const double demand = analysis::median(m.demands);
  const auto a = analysis::analyse_scaling(m.runs, threshold, req.alpha);
  for (const auto& w : a.warnings)
    out.warnings.push_back(w);

  const double measured_hit = analysis::stats_of(m.hits).median;
  analysis::projection_options po;
  po.targets = req.targets;
  po.growth = req.growth;
  po.headroom = req.headroom;
  set_physical_limit(req, po);
  po.cache_model = cache.model;
  po.curve = cache.curve;
  po.dataset_bytes = s.dataset_bytes;
  po.measured_hit_ratio = measured_hit;
  po.demand_per_accelerator = demand;
  const workload_requirement* load =
      find_requirement(requirements, s.workload, s.accelerator, demand);
  if (load)
    po.requirement = &load->pooled;
  const auto allreduce = analysis::series_allreduce(m.recorded, req.accelerators_per_node);
  if (allreduce)
    po.efficiency = [in = *allreduce](double n) { return analysis::efficiency_at(in, n); };
  out.cache = {measured_hit, 0, set_cache_bytes(s, req, m, po), cache.model, cache.reason};
  out.cache.cache_bytes = po.cache_bytes;
  out.projections = analysis::project(a, po);
  reproduce.push_back(command_text(s.reports.front()->typed->command_line.value_or({})));

  out.workload = s.workload;
  out.accelerator = s.accelerator;
  out.backend = s.backend;
  out.label = s.identity.label;
  out.backend_identity = s.identity.key();
  out.cache_mode = s.cache_mode;
  out.dataset_bytes = s.dataset_bytes;
  out.mean_sample_bytes = analysis::median(m.sample_bytes);
  out.au_threshold = threshold;
  out.demand_bytes_per_s_per_accelerator = demand;
  out.runs = runs_of(s, m, a);
  out.measured = measured_of(s, a, req.rules);
  if (a.line)
    out.fit = fit_with_curve(*a.line, a.largest() * 1.1);
  out.knee = a.knee;
  out.limits = limits_of(a, demand, po);
  if (load) { // the load's requirement, pooled over the backends, is the one projected
    out.limits.requirement_basis = load->basis();
    out.limits.requirement_fit = load->pooled.demand_line;
    out.limits.repeat_cv = load->pooled.repeat_cv;
    out.limits.model_error_cv = load->pooled.model_cv;
  }
  for (double hosts : m.nodes)
    if (std::isfinite(hosts))
      out.limits.clients = std::max(out.limits.clients, hosts);
  out.layouts = analysis::layout_rows(m.runs);
  if (allreduce)
    out.scaling = scaling_of(*allreduce, a, req);
  if (po.limit_bytes_per_s > 0) {
    out.limit_bytes_per_s = po.limit_bytes_per_s;
    out.limit_source = po.limit_source;
  }
  out.objects = objects_of(s, m, out.projections);
  return out;
}

// Why a bench report cannot be sized ("" when it can).
std::string exclusion(const loaded_report& lr) {
  if (!lr.typed)
    throw usage_error(fmt::format("{}: not a dlsize bench or checkpoint report (schema {}). "
                                  "valid: reports written by dlsize bench or dlsize checkpoint "
                                  "--out, or a sweep folder",
                                  lr.file, kReportSchema));
  const bench_report& t = *lr.typed;
  if (!t.complete())
    return fmt::format("status {}: {}", t.status_text(), t.reason.value_or(""));
  if (accelerator_type_of(t) == "none" || accelerators_of(t) == 0)
    return "a storage-only run (no accelerators)";
  if (!or_empty(t.summary).read_bytes_per_s.present)
    return "no summary.read_bytes_per_s";
  return "";
}

// The reports sorted into series (one per workload, accelerator, backend and dataset size),
// the checkpoint evidence, and one input row per report saying whether it was used and why not.
struct grouped_reports {
  std::vector<series> groups;
  std::vector<const loaded_report*> checkpoints; // the write path's evidence
  std::vector<sizing_input> inputs;
};

grouped_reports group_reports(const std::vector<loaded_report>& reports) {
  grouped_reports out;
  std::map<std::string, std::size_t> by_key;
  for (const auto& lr : reports) {
    if (is_checkpoint_report(lr.report)) {
      const std::string why = checkpoint_exclusion(lr.report);
      if (why.empty())
        out.checkpoints.push_back(&lr);
      out.inputs.push_back({lr.file, why});
      continue;
    }
    const std::string why = exclusion(lr);
    const bench_report& t = *lr.typed;
    if (t.complete() && has_training_checkpoints(t))
      out.checkpoints.push_back(&lr);
    out.inputs.push_back({lr.file, why});
    if (!why.empty())
      continue;
    series s;
    s.workload = workload_of(t);
    s.accelerator = accelerator_type_of(t);
    s.identity = backend_identity_of(lr.fields);
    s.cache_mode = s.identity.cache_mode;
    s.dataset_bytes = static_cast<double>(or_empty(t.dataset).bytes.value_or(0));
    const std::string key =
        fmt::format("{}|{}|{}|{}", s.workload, s.accelerator, s.identity.key(), s.dataset_bytes);
    auto it = by_key.find(key);
    if (it == by_key.end()) {
      it = by_key.emplace(key, out.groups.size()).first;
      out.groups.push_back(s);
    }
    out.groups[it->second].reports.push_back(&lr);
  }
  if (out.groups.empty() && out.checkpoints.empty()) {
    std::string list;
    for (const auto& i : out.inputs)
      list += fmt::format("\n  {}: {}", i.file, i.reason);
    throw usage_error("size: no report can be sized; each needs a complete training run "
                      "(--accelerator emulated:TYPE) or a complete dlsize checkpoint run" +
                      list);
  }
  return out;
}

// Each series' backend named apart from the others.
void name_backends(std::vector<series>& groups) {
  std::vector<backend_identity> ids;
  for (const auto& g : groups)
    ids.push_back(g.identity);
  const std::vector<std::string> names = distinct_names(ids);
  for (std::size_t i = 0; i < groups.size(); ++i)
    groups[i].backend = names[i];
}

// One cache model per workload, from --cache-model and the cache sweeps among the reports.
std::map<std::string, cache_choice>
choose_cache_models(const std::vector<series>& groups, const sizing_request& req,
                    const std::map<std::string, cache_curve>& curves,
                    std::vector<std::string>& warnings) {
  std::map<std::string, cache_choice> choices;
  for (const auto& g : groups)
    if (!choices.count(g.workload)) {
      const auto& c =
          choices.emplace(g.workload, choose_cache_model(req.cache_model, g.workload, curves))
              .first->second;
      if (!c.warning.empty())
        warnings.push_back(c.warning);
    }
  return choices;
}

// What the sizing takes as given, in words, with the request's figures.
std::vector<std::string> assumptions_of(const sizing_request& req) {
  return {
      "Bandwidth is what the reads returned per second (summary.read_bytes_per_s); the storage "
      "must deliver reads × (1 − h), h the share a cache in front of it serves.",
      "The fit is ordinary least squares with intercept over every run (repeats included); "
      "intervals are 95 % (Student's t with n − 2 degrees of freedom).",
      fmt::format("A knee is chosen only when an extra-sum-of-squares F test prefers a continuous "
                  "hinge to the line at alpha {} and the hinge's second slope is lower; the "
                  "requirement of larger counts comes from the runs below the knee, never from "
                  "a line through saturated runs.",
                  req.alpha),
      "h at the measured dataset size is the runs' measured storage.hit_ratio where given; for "
      "grown data it is modelled (never-evict: min(1, C/D); lru: f + (1 − f)·ln(1 − f), "
      "f = C/D), never above the measured ratio. With a cache sweep among the reports "
      "(--cache-model auto or measured) it is the measured curve's storage bytes per byte "
      "read at f = C/D, readahead amplification included; the curve, measured at one client "
      "RAM, is taken to depend on f alone.",
      fmt::format("Provision = headroom ({}) × the upper 95 % prediction bound of the "
                  "requirement (the estimate itself where no interval exists), capped at "
                  "the physical limits given.",
                  req.headroom),
      "A projection past the largest measured count is an extrapolation, and says so."};
}

} // namespace

sizing_document make_sizing(const report_inputs& in, const sizing_request& req,
                            const nlohmann::json& command_line) {
  const std::vector<loaded_report> reports = typed_reports(in.reports);
  refuse_duplicate_runs(reports);
  grouped_reports g = group_reports(reports);
  name_backends(g.groups);
  std::vector<const loaded_report*> included;
  for (const auto& s : g.groups)
    included.insert(included.end(), s.reports.begin(), s.reports.end());
  const auto curves = cache_curves_of(included);
  sizing_document d;
  d.created_at = utc_now();
  d.tool_version = DLSIZE_VERSION;
  d.command_line = command_line;
  d.reports = std::move(g.inputs);
  d.sweeps = in.sweeps;
  d.options = req;
  d.assumptions = assumptions_of(req);
  const auto choices = choose_cache_models(g.groups, req, curves, d.warnings);
  if (!g.groups.empty())
    d.requirements = requirements_of(requirement_runs(g.groups), req.alpha);
  std::vector<std::string> run_commands;
  for (const auto& s : g.groups)
    d.series.push_back(analyse(s, req, choices.at(s.workload), d.requirements, run_commands));
  for (const auto& [workload, c] : curves)
    d.cache_curves.push_back({workload, c});
  d.checkpoint_series = checkpoint_series(g.checkpoints, req.alpha);
  d.goodput = series_goodput(d.checkpoint_series, g.checkpoints, req.goodput, d.warnings);
  d.answers = answers_of(d, req.prices);
  std::tie(d.read_path, d.write_path) = sizing_paths(!g.groups.empty(), !g.checkpoints.empty());

  d.reproduce = {command_text(command_line)};
  for (const auto& s : in.sweeps)
    d.reproduce.push_back(command_text(s.command_line));
  if (in.sweeps.empty())
    for (const auto& c : run_commands)
      d.reproduce.push_back(
          c + "   # one run of the series; the others differ in --accelerators, --seed, --out");
  for (const auto& n : in.notes)
    d.warnings.push_back(n);
  return d;
}

} // namespace dlsize::analysis
