// The JSON of a sizing_document ("schema": "dlsize.sizing/1", docs/sizing.schema.json): the one
// place a sizing report's keys are written. Numbers are in SI units, null where a figure does
// not exist (no interval with two runs, no knee). Nothing reads a sizing report back but
// `dlsize validate`, which checks it against the schema.
#include <fmt/format.h>

#include "analysis/cache_model.hpp"
#include "analysis/sizing_document.hpp"
#include "report/limit_verdict.hpp"
#include "report/report_io.hpp"

namespace dlsize::analysis {
namespace {

using json = nlohmann::json;

json to_json(const sizing_point& p);
json to_json(const projection& p);
json to_json(const sizing_run& r);
json to_json(const layout_row& r);
json to_json(const sizing_series& s);
json to_json(const sizing_cache_curve& w);
json to_json(const checkpoint_run_row& r);
json to_json(const checkpoint_count_row& c);
json to_json(const checkpoint_series_document& s);
json to_json(const sizing_input& i);
json to_json(const sweep_read& s);

// A number, or null when it is NaN or infinite.
json number_or_null(double v) {
  return std::isfinite(v) ? json(v) : json(nullptr);
}

template <typename T> json or_null(const std::optional<T>& v) {
  return v ? json(*v) : json(nullptr);
}

json interval(const std::optional<std::pair<double, double>>& iv) {
  return iv ? json::array({iv->first, iv->second}) : json(nullptr);
}

json stats_json(const value_stats& s) {
  if (s.count == 0)
    return nullptr;
  return {{"median", s.median}, {"min", s.min}, {"max", s.max}};
}

// slope, intercept, r2, residual_stdev, standard errors, t975, their 95 % intervals, n, mean_x,
// sxx, sse; with a curve also "curve": the fit and both bands, each point's count under x_key.
json fit_json(const sizing_fit& sf, const char* x_key = "accelerators") {
  const linear_fit& f = sf.line;
  json j = {{"n", f.n},
            {"slope", f.slope},
            {"intercept", f.intercept},
            {"r2", f.r2},
            {"residual_stdev", f.n > 2 ? json(f.residual_stdev) : json(nullptr)},
            {"slope_stderr", f.n > 2 ? json(f.slope_stderr) : json(nullptr)},
            {"intercept_stderr", f.n > 2 ? json(f.intercept_stderr) : json(nullptr)},
            {"t975", number_or_null(f.t975)},
            {"slope_ci95", interval(sf.slope_ci95())},
            {"intercept_ci95", interval(sf.intercept_ci95())},
            {"mean_x", f.mean_x},
            {"sxx", f.sxx},
            {"sse", f.sse}};
  if (!sf.curve.empty()) {
    json curve = json::array();
    for (const auto& p : sf.curve)
      curve.push_back({{x_key, p.count},
                       {"fitted", p.fitted},
                       {"confidence_low", number_or_null(p.confidence_low)},
                       {"confidence_high", number_or_null(p.confidence_high)},
                       {"prediction_low", number_or_null(p.prediction_low)},
                       {"prediction_high", number_or_null(p.prediction_high)}});
    j["curve"] = curve;
  }
  return j;
}

json fit_or_null(const std::optional<sizing_fit>& f, const char* x_key = "accelerators") {
  return f ? fit_json(*f, x_key) : json(nullptr);
}

// The knee test against a count: unit is its noun ("accelerator", "rank"); the breakpoint of a
// chosen knee is under unit + "s".
json knee_json(const knee_test& k, const std::string& unit) {
  json j = {{"test", knee_test_description(unit)},
            {"alpha", k.alpha},
            {"tested", k.tested},
            {"chosen", k.chosen},
            {"reason", k.reason},
            {"f", k.tested ? number_or_null(k.f) : json(nullptr)},
            {"df1", k.tested ? json(k.df1) : json(nullptr)},
            {"df2", k.tested ? json(k.df2) : json(nullptr)},
            {"p_value", k.tested ? json(k.p_value) : json(nullptr)},
            {"sse_line", k.tested ? json(k.sse_line) : json(nullptr)},
            {"sse_hinge", k.tested ? json(k.hinge.sse) : json(nullptr)},
            {"hinge", nullptr},
            {unit + "s", k.chosen ? json(k.hinge.breakpoint) : json(nullptr)}};
  if (k.tested)
    j["hinge"] = {{"breakpoint", k.hinge.breakpoint},
                  {"intercept", k.hinge.intercept},
                  {"slope_before", k.hinge.slope_before},
                  {"slope_after", k.hinge.slope_after}};
  return j;
}

json to_json(const sizing_point& p) {
  const count_row& r = p.row;
  return {{"accelerators", r.accelerators},
          {"runs", r.runs},
          {"read_bytes_per_s", stats_json(r.read_bytes_per_s)},
          {"samples_per_s", stats_json(r.samples_per_s)},
          {"samples_per_s_per_accelerator", stats_json(r.samples_per_s_per_accelerator)},
          {"accelerator_utilization", stats_json(r.accelerator_utilization)},
          {"storage_au", stats_json(r.storage_au)},
          {"au_passes", r.au_passes},
          {"scaling_efficiency", number_or_null(r.scaling_efficiency)},
          {"hit_ratio", stats_json(r.hit_ratio)},
          {"mlperf_validity", to_json(p.mlperf_validity)}};
}

json to_json(const projection& p) {
  return {{"accelerators", p.accelerators},
          {"data_growth", p.growth},
          {"dataset_bytes", p.dataset_bytes},
          {"hit_ratio", p.hit_ratio},
          {"hit_ratio_source", p.hit_ratio_source},
          {"storage_per_read_byte", p.storage_per_read},
          {"scaling_efficiency", p.scaling_efficiency},
          {"reads_bytes_per_s", p.reads},
          {"reads_interval", interval(interval_of(p.reads_low, p.reads_high))},
          {"required_bytes_per_s", p.required},
          {"required_interval", interval(interval_of(p.required_low, p.required_high))},
          {"provision_bytes_per_s", p.provision},
          {"provision_capped_bytes_per_s", p.provision_capped},
          {"within_limit", or_null(p.within_limit)},
          {"expected_accelerator_utilization", number_or_null(p.expected_accelerator_utilization)},
          {"backend_holds", or_null(p.backend_holds)},
          {"max_accelerators_at_threshold", or_null(p.max_accelerators)},
          {"flags", p.flags},
          {"warnings", p.warnings}};
}

json to_json(const sizing_run& r) {
  const run_point& p = r.point;
  return {{"file", p.file},
          {"accelerators", p.accelerators},
          {"read_bytes_per_s", number_or_null(p.read_bytes_per_s)},
          {"samples_per_s", number_or_null(p.samples_per_s)},
          {"samples_per_s_per_accelerator", number_or_null(p.samples_per_s_per_accelerator)},
          {"accelerator_utilization", number_or_null(p.accelerator_utilization)},
          {"au_pass", p.au_pass},
          {"hit_ratio", number_or_null(p.hit_ratio)},
          {"limited_by", report::to_string(p.limit)},
          {"seed", r.seed},
          {"fitted", or_null(r.fitted)},
          {"residual", or_null(r.residual)},
          {"command", r.command}};
}

json to_json(const layout_row& r) {
  return {{"accelerators", r.accelerators},
          {"nodes", r.nodes},
          {"declared", r.declared},
          {"accelerators_per_node", r.accelerators_per_node},
          {"runs", r.runs},
          {"samples_per_s",
           {{"median", r.samples_per_s.median},
            {"min", r.samples_per_s.min},
            {"max", r.samples_per_s.max}}},
          {"efficiency_vs_linear", or_null(r.efficiency_vs_linear)},
          {"difference_vs_fewest_nodes", or_null(r.difference_vs_fewest_nodes)}};
}

json to_json(const sizing_scaling& s) {
  json curve = json::array();
  for (const auto& p : s.curve)
    curve.push_back(
        {{"accelerators", p.accelerators},
         {"nodes", p.layout.nodes},
         {"accelerators_per_node", p.layout.per_node},
         {"exposed_allreduce_s", p.exposed_s},
         {"scaling_efficiency", p.efficiency},
         {"measured_scaling_efficiency", number_or_null(p.measured_scaling_efficiency)}});
  return {{"source", "the allreduce model the runs recorded (topology.allreduce)"},
          {"algorithm", model::to_string(s.inputs.allreduce.algorithm)},
          {"gradient_bytes", s.inputs.allreduce.gradient_bytes},
          {"compute_s", s.inputs.compute_s},
          {"accelerators_per_node", s.inputs.per_node},
          {"overlap", s.inputs.allreduce.overlap},
          {"curve", curve},
          {"note", "the reads each target asks of storage are the requirement's line (the job's "
                   "demand without the allreduce: bytes read ÷ MLPerf AU) × the modelled "
                   "efficiency"}};
}

json to_json(const object_sizing& s) {
  json runs = json::array(), targets = json::array();
  for (const auto& r : s.runs)
    runs.push_back({{"file", r.file},
                    {"accelerators", r.accelerators},
                    {"requests_per_s", r.requests_per_s},
                    {"requests_per_sample", r.requests_per_sample},
                    {"bytes_per_request", r.bytes_per_request},
                    {"first_byte_s", r.first_byte_s},
                    {"latency_s", r.latency_s},
                    {"storage_limited", r.storage_limited}});
  for (const auto& t : s.targets)
    targets.push_back({{"accelerators", t.accelerators},
                       {"required_bytes_per_s", t.required_bytes_per_s},
                       {"requests_per_s", t.requests_per_s},
                       {"requests_in_flight", t.requests_in_flight}});
  return {{"runs", runs},
          {"runs_without_figures", s.runs_without_figures},
          {"requests_per_sample", s.requests_per_sample},
          {"bytes_per_request", s.bytes_per_request},
          {"first_byte_s", s.first_byte_s},
          {"connection_bytes_per_s", s.connection_bytes_per_s},
          {"best_requests_per_s", s.best_requests_per_s},
          {"targets", targets},
          {"limit", s.limit},
          {"limit_reason", s.limit_reason}};
}

template <typename T> json array_of(const std::vector<T>& items) {
  json out = json::array();
  for (const auto& i : items)
    out.push_back(to_json(i));
  return out;
}

// What the fit says: the knee at the threshold, the ceiling, the counts it supports, and the
// requirement's line.
json limits_json(const sizing_limits& l, double threshold) {
  return {
      {"au_knee",
       {{"threshold", threshold},
        {"first_below_accelerators", or_null(l.first_below_accelerators)},
        {"most_passing_accelerators", or_null(l.most_passing_accelerators)},
        {"all_pass", !l.first_below_accelerators}}},
      {"ceiling",
       {{"bytes_per_s", or_null(l.ceiling_bytes_per_s)},
        {"best_measured_bytes_per_s", l.best_measured_bytes_per_s},
        {"source", l.ceiling_source},
        {"storage_limited_runs", l.storage_limited_runs},
        {"client_limited_runs", l.client_limited_runs},
        {"lower_bound", l.ceiling_lower_bound},
        {"clients", l.clients}}},
      {"max_accelerators_at_threshold",
       {{"measured", or_null(l.most_passing_accelerators)},
        {"measured_is_lower_bound", !l.first_below_accelerators},
        {"modelled", or_null(l.modelled_max_accelerators)}}},
      {"requirement",
       {{"basis", l.requirement_basis},
        {"fit", l.requirement_fit ? fit_json(sizing_fit{*l.requirement_fit, {}}) : json(nullptr)},
        {"repeat_cv", l.repeat_cv},
        {"model_error_cv", l.model_error_cv}}}};
}

json to_json(const sizing_series& s) {
  json j = limits_json(s.limits, s.au_threshold);
  j.update(
      {{"workload", s.workload},
       {"accelerator", s.accelerator},
       {"backend", s.backend},
       {"label", s.label},
       {"backend_identity", s.backend_identity},
       {"cache_mode", s.cache_mode},
       {"dataset_bytes", s.dataset_bytes},
       {"mean_sample_bytes", number_or_null(s.mean_sample_bytes)},
       {"au_threshold", s.au_threshold},
       {"demand_bytes_per_s_per_accelerator", number_or_null(s.demand_bytes_per_s_per_accelerator)},
       {"runs", array_of(s.runs)},
       {"measured", array_of(s.measured)},
       {"fit", fit_or_null(s.fit)},
       {"knee", knee_json(s.knee, "accelerator")},
       {"cache",
        {{"cache_mode", s.cache_mode},
         {"measured_hit_ratio", number_or_null(s.cache.measured_hit_ratio)},
         {"cache_bytes", s.cache.cache_bytes},
         {"cache_bytes_source", s.cache.cache_bytes_source},
         {"model", cache_model_name(s.cache.model)},
         {"model_reason", s.cache.model_reason}}},
       {"layouts", array_of(s.layouts)},
       {"scaling", s.scaling ? to_json(*s.scaling) : json(nullptr)},
       {"limit_bytes_per_s", or_null(s.limit_bytes_per_s)},
       {"limit_source", s.limit_bytes_per_s ? json(s.limit_source) : json(nullptr)},
       {"projections", array_of(s.projections)},
       {"warnings", s.warnings}});
  if (s.objects)
    j["objects"] = to_json(*s.objects);
  return j;
}

json residuals_json(const cache_residuals& r) {
  return {{"rms", r.rms}, {"mean", r.mean}, {"max_abs", r.max_abs}};
}

// A cache_curves entry: every run beside both models and the fit, with residuals; the knots;
// the residuals' summaries; the readahead amplification.
json to_json(const sizing_cache_curve& w) {
  const cache_curve& c = w.curve;
  json points = json::array();
  for (const auto& p : c.points)
    points.push_back({{"file", p.file},
                      {"f", p.f},
                      {"storage_per_read_byte", p.storage_per_read},
                      {"hit_ratio", p.hit_ratio()},
                      {"fitted_hit_ratio", c.hit_ratio_at(p.f)},
                      {"lru_hit_ratio", lru_hit_ratio(p.f, 1)},
                      {"never_evict_hit_ratio", never_evict_hit_ratio(p.f, 1)},
                      {"residual", p.hit_ratio() - c.hit_ratio_at(p.f)}});
  json knots = json::array();
  for (const auto& k : c.knots)
    knots.push_back({{"f", k.f},
                     {"runs", k.runs},
                     {"measured_storage_per_read_byte", k.measured_storage_per_read},
                     {"storage_per_read_byte", k.storage_per_read},
                     {"hit_ratio", c.hit_ratio_at(k.f)},
                     {"lru_hit_ratio", lru_hit_ratio(k.f, 1)},
                     {"never_evict_hit_ratio", never_evict_hit_ratio(k.f, 1)}});
  return {{"workload", w.workload},
          {"distinct_f", c.knots.size()},
          {"usable", c.usable()},
          {"method", cache_curve_method()},
          {"readahead_amplification",
           c.knots.empty() ? json(nullptr) : json(c.readahead_amplification())},
          {"residuals",
           {{"fit", residuals_json(c.fit_residuals())},
            {"lru", residuals_json(c.lru_residuals())},
            {"never_evict", residuals_json(c.never_evict_residuals())},
            {"fit_storage_per_read_byte", residuals_json(c.fit_storage_residuals())}}},
          {"knots", knots},
          {"points", points}};
}

json to_json(const checkpoint_run_row& r) {
  return {{"file", r.file},
          {"ranks", r.ranks},
          {"bytes_per_checkpoint", number_or_null(r.bytes_per_checkpoint)},
          {"write_bytes_per_s", number_or_null(r.write_bytes_per_s)},
          {"write_throughput_bytes_per_s", number_or_null(r.write_throughput)},
          {"write_duration_s", number_or_null(r.write_duration_s)},
          {"read_bytes_per_s", number_or_null(r.read_bytes_per_s)},
          {"read_throughput_bytes_per_s", number_or_null(r.read_throughput)},
          {"read_duration_s", number_or_null(r.read_duration_s)},
          {"write_fitted", or_null(r.write_fitted)},
          {"write_residual", or_null(r.write_residual)},
          {"read_fitted", or_null(r.read_fitted)},
          {"read_residual", or_null(r.read_residual)}};
}

json to_json(const checkpoint_count_row& c) {
  const value_stats& d = c.duration_s;
  return {
      {"ranks", c.ranks},
      {"runs", c.runs},
      {"bytes_per_s",
       {{"median", c.bytes_per_s.median}, {"min", c.bytes_per_s.min}, {"max", c.bytes_per_s.max}}},
      {"duration_s",
       d.count ? json{{"median", d.median}, {"min", d.min}, {"max", d.max}} : json(nullptr)}};
}

json path_json(const std::optional<checkpoint_path>& p) {
  if (!p)
    return nullptr;
  return {{"measured", array_of(p->measured)},
          {"fit", fit_or_null(p->fit, "ranks")},
          {"knee", knee_json(p->knee, "rank")},
          {"best_bytes_per_s", p->best_bytes_per_s},
          {"warnings", p->warnings}};
}

json to_json(const checkpoint_series_document& s) {
  return {{"source", s.source},
          {"workload", s.workload},
          {"backend", s.backend},
          {"label", s.label},
          {"backend_identity", s.backend_identity},
          {"cache_mode", s.cache_mode},
          {"scale", number_or_null(s.scale)},
          {"subset", s.subset},
          {"bytes_per_checkpoint", number_or_null(s.bytes_per_checkpoint)},
          {"runs", array_of(s.runs)},
          {"write", path_json(s.write)},
          {"read", path_json(s.read)},
          {"warnings", s.warnings}};
}

json to_json(const sizing_input& i) {
  return {{"file", i.file},
          {"included", i.reason.empty()},
          {"reason", i.reason.empty() ? json(nullptr) : json(i.reason)}};
}

json to_json(const sweep_read& s) {
  return {{"folder", s.folder}, {"command_line", s.command_line}};
}

json to_json(const sizing_path& p) {
  return {{"measured", p.measured}, {"note", p.note}};
}

json prices_json(const price_list& prices) {
  json out = json::object();
  const auto opt = [](const std::optional<double>& v) { return v ? json(*v) : json(nullptr); };
  for (const auto& [label, p] : prices)
    out[label] = {{"price_per_tb", opt(p.price_per_tb)},
                  {"price_per_gbps", opt(p.price_per_gbps)},
                  {"usable_tb", opt(p.usable_tb)},
                  {"source", p.source}};
  return out;
}

json options_json(const sizing_request& req) {
  auto positive = [](double v) { return v > 0 ? json(v) : json(nullptr); };
  return {{"target_accelerators", req.targets},
          {"data_growth", req.growth},
          {"headroom", req.headroom},
          {"nic_bandwidth_bytes_per_s", positive(req.nic_bandwidth)},
          {"nic_efficiency", req.nic_efficiency},
          {"clients", req.clients},
          {"front_end_bandwidth_bytes_per_s", positive(req.front_end_bandwidth)},
          {"cache_model", cache_model_name(req.cache_model)},
          {"cache_bytes", req.cache_bytes >= 0 ? json(req.cache_bytes) : json(nullptr)},
          {"alpha", req.alpha},
          {"confidence", 0.95},
          {"dataset_bytes", positive(req.dataset_bytes)},
          {"prices", prices_json(req.prices)}};
}

json answers_json(const sizing_document& d) {
  json out = json::array();
  for (const auto& a : d.answers)
    out.push_back(to_json(a, d.requirements.at(a.requirement)));
  return out;
}

} // namespace

json to_json(const sizing_document& d) {
  json out = {{"schema", kSizingSchema},
              {"created_at", d.created_at},
              {"tool", report::tool_json()},
              {"command_line", d.command_line},
              {"inputs",
               {{"reports", array_of(d.reports)},
                {"sweeps", array_of(d.sweeps)},
                {"options", options_json(d.options)}}},
              {"assumptions", d.assumptions},
              {"answers", answers_json(d)},
              {"cache_curves", array_of(d.cache_curves)},
              {"series", array_of(d.series)},
              {"checkpoint_series", array_of(d.checkpoint_series)},
              {"paths", {{"read", to_json(d.read_path)}, {"write", to_json(d.write_path)}}},
              {"reproduce", d.reproduce},
              {"warnings", d.warnings}};
  // Only where checkpoint writes were measured: a sizing of reads alone is unchanged.
  if (!d.goodput.empty())
    out["goodput"] = array_of(d.goodput);
  return out;
}

} // namespace dlsize::analysis
