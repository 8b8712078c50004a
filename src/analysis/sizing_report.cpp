#include "analysis/sizing_report.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

#include <fmt/format.h>

#include "analysis/cache_sweep.hpp"
#include "analysis/checkpoint_sizing.hpp"
#include "analysis/layouts.hpp"
#include "analysis/point_validity.hpp"
#include "analysis/scaling_model.hpp"
#include "analysis/size_scaling.hpp"
#include "analysis/sizing_json.hpp"
#include "analysis/stats.hpp"
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
nlohmann::json scaling_of(const analysis::scaling_inputs& in, const analysis::scaling_analysis& a,
                          const sizing_request& req) {
  std::vector<double> counts = req.targets;
  for (const auto& row : a.counts)
    counts.push_back(row.accelerators);
  nlohmann::json j = analysis::scaling_section(in, counts);
  for (auto& point : j["curve"]) {
    nlohmann::json measured = nullptr;
    for (const auto& row : a.counts)
      if (row.accelerators == point["accelerators"].get<double>())
        measured = number_or_null(row.scaling_efficiency);
    point["measured_scaling_efficiency"] = measured;
  }
  j["note"] = "the reads each target asks of storage are the requirement's line (the job's "
              "demand without the allreduce: bytes read ÷ MLPerf AU) × the modelled efficiency";
  return j;
}

// Per accelerator count, its figures and the MLPerf Storage verdict on its runs (a point: one
// backend, load and count).
nlohmann::json measured_json(const series& s, const analysis::scaling_analysis& a,
                             report::rules_edition edition) {
  nlohmann::json measured = nlohmann::json::array();
  for (const auto& row : a.counts) {
    std::vector<point_run> runs;
    for (const auto* lr : s.reports)
      if (static_cast<double>(accelerators_of(lr->fields)) == row.accelerators)
        runs.push_back(point_run_of(*lr, edition));
    nlohmann::json j = count_row_json(row);
    j["mlperf_validity"] = to_json(judge_point(runs, "dlsize size", edition));
    measured.push_back(std::move(j));
  }
  return measured;
}

nlohmann::json analyse(const series& s, const sizing_request& req, const cache_choice& cache,
                       std::vector<std::string>& reproduce) {
  std::vector<analysis::run_point> runs;
  std::vector<double> thresholds, demands, hits, ram, nodes, sample_bytes;
  nlohmann::json warnings = nlohmann::json::array();
  const auto& first = *s.reports.front();
  std::vector<analysis::recorded_report> recorded;
  std::set<std::string> may_differ = backend_settings();
  may_differ.insert({"accelerators", "accelerators-per-rank"});
  for (const auto* lr : s.reports) {
    const auto& r = lr->report;
    const bench_report& t = *lr->typed;
    const auto& sm = or_empty(t.summary);
    analysis::run_point p;
    p.file = lr->file;
    p.accelerators = static_cast<double>(accelerators_of(t));
    p.read_bytes_per_s = number(sm.read_bytes_per_s);
    p.samples_per_s = number(sm.samples_per_s);
    p.samples_per_s_per_accelerator = number(sm.samples_per_s_per_accelerator);
    p.accelerator_utilization = number(sm.accelerator_utilization);
    p.storage_au = number(sm.storage_au);
    const auto& tp = or_empty(t.topology);
    const double declared = tp.declared.has_value() && tp.declared.value->is_object()
                                ? tp.declared.value->value("nodes", 0.0)
                                : 0.0;
    p.nodes = declared > 0 ? declared : std::max(1.0, number(tp.nodes));
    p.declared_nodes = declared > 0;
    recorded.push_back({lr->file, &r});
    p.au_pass = sm.au_pass.value_or(false);
    p.hit_ratio = number(or_empty(t.storage).hit_ratio);
    p.limit = report::limit_of(t).kind;
    runs.push_back(p);
    thresholds.push_back(number(sm.au_threshold));
    demands.push_back(number(sm.demand_bytes_per_s_per_accelerator));
    hits.push_back(p.hit_ratio);
    ram.push_back(number(or_empty(t.dataset).client_ram_bytes));
    nodes.push_back(number(or_empty(t.topology).nodes));
    sample_bytes.push_back(number(or_empty(t.workload).mean_sample_bytes));
    if (lr != &first)
      for (const auto& w : setting_differences(first.fields, first.file, t, lr->file, may_differ))
        warnings.push_back(w);
  }
  const auto th = analysis::stats_of(thresholds);
  const double threshold = std::isfinite(th.median) ? th.median : 0.9;
  if (th.count && th.min != th.max)
    warnings.push_back(
        fmt::format("the runs' AU thresholds differ ({} to {}); the median {} is used", th.min,
                    th.max, threshold));
  const double demand = analysis::median(demands);
  const auto a = analysis::analyse_scaling(runs, threshold, req.alpha);
  for (const auto& w : a.warnings)
    warnings.push_back(w);

  const double measured_hit = analysis::stats_of(hits).median;
  analysis::projection_options po;
  po.targets = req.targets;
  po.growth = req.growth;
  po.headroom = req.headroom;
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
  po.cache_model = cache.model;
  po.curve = cache.curve;
  po.dataset_bytes = s.dataset_bytes;
  po.measured_hit_ratio = measured_hit;
  po.demand_per_accelerator = demand;
  const auto allreduce = analysis::series_allreduce(recorded, req.accelerators_per_node);
  if (allreduce)
    po.efficiency = [in = *allreduce](double n) { return analysis::efficiency_at(in, n); };
  std::string cache_source;
  const double client_ram = analysis::median(ram);
  const double clients = std::isfinite(analysis::median(nodes)) ? analysis::median(nodes) : 1;
  if (req.cache_bytes >= 0) {
    po.cache_bytes = req.cache_bytes;
    cache_source = "--client-ram × --clients";
  } else if (s.cache_mode == "buffered" && std::isfinite(client_ram)) {
    po.cache_bytes = client_ram * clients;
    cache_source = fmt::format("the page cache: the clients' RAM in the reports ({} × {})",
                               units::format_bytes_binary(client_ram), clients);
  } else {
    po.cache_bytes = 0;
    cache_source = fmt::format("none: {} reads bypass the page cache", s.cache_mode);
  }
  const auto projections = analysis::project(a, po);

  nlohmann::json runs_json = nlohmann::json::array();
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const auto& p = runs[i];
    nlohmann::json j = {
        {"file", p.file},
        {"accelerators", p.accelerators},
        {"read_bytes_per_s", number_or_null(p.read_bytes_per_s)},
        {"samples_per_s", number_or_null(p.samples_per_s)},
        {"samples_per_s_per_accelerator", number_or_null(p.samples_per_s_per_accelerator)},
        {"accelerator_utilization", number_or_null(p.accelerator_utilization)},
        {"au_pass", p.au_pass},
        {"hit_ratio", number_or_null(p.hit_ratio)},
        {"limited_by", report::to_string(p.limit)},
        {"seed", s.reports[i]->typed->option("seed")},
        {"fitted",
         a.line ? nlohmann::json(a.line->predict(p.accelerators)) : nlohmann::json(nullptr)},
        {"residual", a.line ? nlohmann::json(a.line->residuals[i]) : nlohmann::json(nullptr)},
        {"command", command_text(s.reports[i]->typed->command_line.value_or({}))}};
    runs_json.push_back(j);
  }
  nlohmann::json proj = nlohmann::json::array();
  for (const auto& p : projections)
    proj.push_back(projection_json(p));
  std::optional<std::uint64_t> modelled;
  if (a.ceiling) { // the ceiling is in reads: no cache to take off
    modelled = analysis::max_accelerators_at_threshold(a, *a.ceiling, 0, demand, po.efficiency);
    // A count that passed is carried, whatever the model says.
    if (a.most_passing)
      modelled = std::max(*modelled, static_cast<std::uint64_t>(*a.most_passing));
  }
  reproduce.push_back(command_text(first.typed->command_line.value_or({})));

  return {
      {"workload", s.workload},
      {"accelerator", s.accelerator},
      {"backend", s.backend},
      {"label", s.identity.label},
      {"backend_identity", s.identity.key()},
      {"cache_mode", s.cache_mode},
      {"dataset_bytes", s.dataset_bytes},
      {"mean_sample_bytes", number_or_null(analysis::median(sample_bytes))},
      {"au_threshold", threshold},
      {"demand_bytes_per_s_per_accelerator", number_or_null(demand)},
      {"runs", runs_json},
      {"measured", measured_json(s, a, req.rules)},
      {"fit", a.line ? fit_json(*a.line, a.largest() * 1.1) : nlohmann::json(nullptr)},
      {"knee", knee_json(a)},
      {"au_knee",
       {{"threshold", threshold},
        {"first_below_accelerators",
         a.au_knee ? nlohmann::json(*a.au_knee) : nlohmann::json(nullptr)},
        {"most_passing_accelerators",
         a.most_passing ? nlohmann::json(*a.most_passing) : nlohmann::json(nullptr)},
        {"all_pass", !a.au_knee}}},
      {"ceiling",
       {{"bytes_per_s", a.ceiling ? nlohmann::json(*a.ceiling) : nlohmann::json(nullptr)},
        {"best_measured_bytes_per_s", a.best_bytes_per_s},
        {"source", a.ceiling ? a.ceiling_source
                             : "storage never limited AU: the backend was not saturated; it "
                               "delivers at least the best measured bandwidth"},
        {"storage_limited_runs", a.storage_limited_runs},
        {"client_limited_runs", a.client_limited_runs}}},
      {"max_accelerators_at_threshold",
       {{"measured", a.most_passing ? nlohmann::json(*a.most_passing) : nlohmann::json(nullptr)},
        {"measured_is_lower_bound", !a.au_knee},
        {"modelled", modelled ? nlohmann::json(*modelled) : nlohmann::json(nullptr)}}},
      {"requirement",
       {{"basis", a.demand_line ? a.demand_basis : "the demand of one accelerator × the count"},
        {"fit", a.demand_line ? fit_json(*a.demand_line) : nlohmann::json(nullptr)},
        {"repeat_cv", a.repeat_cv},
        {"model_error_cv", a.model_cv}}},
      {"cache",
       {{"cache_mode", s.cache_mode},
        {"measured_hit_ratio", number_or_null(measured_hit)},
        {"cache_bytes", po.cache_bytes},
        {"cache_bytes_source", cache_source},
        {"model", analysis::cache_model_name(cache.model)},
        {"model_reason", cache.reason}}},
      {"layouts", analysis::layout_rows(runs)},
      {"scaling", allreduce ? scaling_of(*allreduce, a, req) : nlohmann::json(nullptr)},
      {"limit_bytes_per_s", limit > 0 ? nlohmann::json(limit) : nlohmann::json(nullptr)},
      {"limit_source", limit > 0 ? nlohmann::json(po.limit_source) : nlohmann::json(nullptr)},
      {"projections", proj},
      {"warnings", warnings}};
}

} // namespace

nlohmann::json make_sizing(const report_inputs& in, const sizing_request& req,
                           const nlohmann::json& command_line) {
  nlohmann::json inputs = nlohmann::json::array();
  std::vector<series> groups;
  std::map<std::string, std::size_t> by_key;
  const std::vector<loaded_report> reports = typed_reports(in.reports);
  refuse_duplicate_runs(reports);
  std::vector<const loaded_report*> checkpoints; // the write path's evidence
  for (const auto& lr : reports) {
    const auto& r = lr.report;
    std::string why;
    if (is_checkpoint_report(r)) {
      why = checkpoint_exclusion(r);
      if (why.empty())
        checkpoints.push_back(&lr);
      inputs.push_back({{"file", lr.file},
                        {"included", why.empty()},
                        {"reason", why.empty() ? nlohmann::json(nullptr) : nlohmann::json(why)}});
      continue;
    }
    if (!lr.typed)
      throw usage_error(fmt::format("{}: not a dlsize bench or checkpoint report (schema {}). "
                                    "valid: reports written by dlsize bench or dlsize checkpoint "
                                    "--out, or a sweep folder",
                                    lr.file, kReportSchema));
    const bench_report& t = *lr.typed;
    if (t.complete() && has_training_checkpoints(r))
      checkpoints.push_back(&lr);
    if (!t.complete())
      why = fmt::format("status {}: {}", t.status_text(), t.reason.value_or(""));
    else if (accelerator_type_of(t) == "none" || accelerators_of(t) == 0)
      why = "a storage-only run (no accelerators)";
    else if (!or_empty(t.summary).read_bytes_per_s.present)
      why = "no summary.read_bytes_per_s";
    inputs.push_back({{"file", lr.file},
                      {"included", why.empty()},
                      {"reason", why.empty() ? nlohmann::json(nullptr) : nlohmann::json(why)}});
    if (!why.empty())
      continue;
    series s;
    s.workload = workload_of(t);
    s.accelerator = accelerator_type_of(t);
    s.identity = backend_identity_of(r);
    s.cache_mode = s.identity.cache_mode;
    s.dataset_bytes = static_cast<double>(or_empty(t.dataset).bytes.value_or(0));
    const std::string key =
        fmt::format("{}|{}|{}|{}", s.workload, s.accelerator, s.identity.key(), s.dataset_bytes);
    auto it = by_key.find(key);
    if (it == by_key.end()) {
      it = by_key.emplace(key, groups.size()).first;
      groups.push_back(s);
    }
    groups[it->second].reports.push_back(&lr);
  }
  if (groups.empty() && checkpoints.empty()) {
    std::string list;
    for (const auto& i : inputs)
      list +=
          fmt::format("\n  {}: {}", i["file"].get<std::string>(), i["reason"].get<std::string>());
    throw usage_error("size: no report can be sized; each needs a complete training run "
                      "(--accelerator emulated:TYPE) or a complete dlsize checkpoint run" +
                      list);
  }

  std::vector<std::string> reproduce = {command_text(command_line)};
  for (const auto& s : in.sweeps)
    reproduce.push_back(command_text(s["command_line"]));
  std::vector<backend_identity> ids;
  for (const auto& g : groups)
    ids.push_back(g.identity);
  const std::vector<std::string> names = distinct_names(ids);
  for (std::size_t i = 0; i < groups.size(); ++i)
    groups[i].backend = names[i];
  std::vector<const loaded_report*> included;
  for (const auto& g : groups)
    included.insert(included.end(), g.reports.begin(), g.reports.end());
  const auto curves = cache_curves_of(included);
  nlohmann::json warnings = nlohmann::json::array();
  std::map<std::string, cache_choice> choices;
  for (const auto& g : groups)
    if (!choices.count(g.workload)) {
      const auto& c =
          choices.emplace(g.workload, choose_cache_model(req.cache_model, g.workload, curves))
              .first->second;
      if (!c.warning.empty())
        warnings.push_back(c.warning);
    }
  std::vector<std::string> run_commands;
  nlohmann::json series_json = nlohmann::json::array();
  for (const auto& g : groups)
    series_json.push_back(analyse(g, req, choices.at(g.workload), run_commands));
  nlohmann::json curves_json = nlohmann::json::array();
  for (const auto& [workload, c] : curves)
    curves_json.push_back(cache_curve_json(workload, c));
  if (in.sweeps.empty())
    for (const auto& c : run_commands)
      reproduce.push_back(
          c + "   # one run of the series; the others differ in --accelerators, --seed, --out");

  for (const auto& n : in.notes)
    warnings.push_back(n);
  return {
      {"schema", kSizingSchema},
      {"created_at", utc_now()},
      {"tool", tool_json()},
      {"command_line", command_line},
      {"inputs",
       {{"reports", inputs},
        {"sweeps", in.sweeps},
        {"options",
         {{"target_accelerators", req.targets},
          {"data_growth", req.growth},
          {"headroom", req.headroom},
          {"nic_bandwidth_bytes_per_s",
           req.nic_bandwidth > 0 ? nlohmann::json(req.nic_bandwidth) : nlohmann::json(nullptr)},
          {"nic_efficiency", req.nic_efficiency},
          {"clients", req.clients},
          {"front_end_bandwidth_bytes_per_s", req.front_end_bandwidth > 0
                                                  ? nlohmann::json(req.front_end_bandwidth)
                                                  : nlohmann::json(nullptr)},
          {"cache_model", analysis::cache_model_name(req.cache_model)},
          {"cache_bytes",
           req.cache_bytes >= 0 ? nlohmann::json(req.cache_bytes) : nlohmann::json(nullptr)},
          {"alpha", req.alpha},
          {"confidence", 0.95}}}}},
      {"assumptions",
       {"Bandwidth is what the reads returned per second (summary.read_bytes_per_s); the storage "
        "must deliver reads × (1 − h), h the share a cache in front of it serves.",
        "The fit is ordinary least squares with intercept over every run (repeats included); "
        "intervals are 95 % (Student's t with n − 2 degrees of freedom).",
        fmt::format(
            "A knee is chosen only when an extra-sum-of-squares F test prefers a continuous "
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
        "A projection past the largest measured count is an extrapolation, and says so."}},
      {"cache_curves", curves_json},
      {"series", series_json},
      {"checkpoint_series", checkpoint_series(checkpoints, req.alpha)},
      {"paths", sizing_paths(!groups.empty(), !checkpoints.empty())},
      {"reproduce", reproduce},
      {"warnings", warnings}};
}

} // namespace dlsize::analysis
