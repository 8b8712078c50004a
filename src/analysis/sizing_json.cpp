#include "analysis/sizing_json.hpp"

#include <cmath>

namespace dlsize::analysis {
namespace {

nlohmann::json stats_json(const analysis::value_stats& s) {
  if (s.count == 0)
    return nullptr;
  return {{"median", s.median}, {"min", s.min}, {"max", s.max}};
}

nlohmann::json interval(double centre, double half) {
  if (!std::isfinite(half))
    return nullptr;
  return nlohmann::json::array({centre - half, centre + half});
}

template <typename T> nlohmann::json optional_json(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

} // namespace

nlohmann::json number_or_null(double v) {
  return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
}

nlohmann::json fit_json(const analysis::linear_fit& f, double curve_to, const char* x_key) {
  nlohmann::json j = {
      {"n", f.n},
      {"slope", f.slope},
      {"intercept", f.intercept},
      {"r2", f.r2},
      {"residual_stdev", f.n > 2 ? nlohmann::json(f.residual_stdev) : nlohmann::json(nullptr)},
      {"slope_stderr", f.n > 2 ? nlohmann::json(f.slope_stderr) : nlohmann::json(nullptr)},
      {"intercept_stderr", f.n > 2 ? nlohmann::json(f.intercept_stderr) : nlohmann::json(nullptr)},
      {"t975", number_or_null(f.t975)},
      {"slope_ci95", interval(f.slope, f.t975 * f.slope_stderr)},
      {"intercept_ci95", interval(f.intercept, f.t975 * f.intercept_stderr)},
      {"mean_x", f.mean_x},
      {"sxx", f.sxx},
      {"sse", f.sse}};
  if (curve_to > 0) {
    nlohmann::json curve = nlohmann::json::array();
    constexpr int steps = 32;
    for (int i = 0; i <= steps; ++i) {
      const double x = curve_to * i / steps;
      const double y = f.predict(x);
      const double c = f.confidence_half_width(x), p = f.prediction_half_width(x);
      curve.push_back({{x_key, x},
                       {"fitted", y},
                       {"confidence_low", number_or_null(y - c)},
                       {"confidence_high", number_or_null(y + c)},
                       {"prediction_low", number_or_null(y - p)},
                       {"prediction_high", number_or_null(y + p)}});
    }
    j["curve"] = curve;
  }
  return j;
}

nlohmann::json count_row_json(const analysis::count_row& r) {
  return {{"accelerators", r.accelerators},
          {"runs", r.runs},
          {"read_bytes_per_s", stats_json(r.read_bytes_per_s)},
          {"samples_per_s", stats_json(r.samples_per_s)},
          {"samples_per_s_per_accelerator", stats_json(r.samples_per_s_per_accelerator)},
          {"accelerator_utilization", stats_json(r.accelerator_utilization)},
          {"storage_au", stats_json(r.storage_au)},
          {"au_passes", r.au_passes},
          {"scaling_efficiency", number_or_null(r.scaling_efficiency)},
          {"hit_ratio", stats_json(r.hit_ratio)}};
}

nlohmann::json knee_json(const analysis::scaling_analysis& a) {
  return knee_json(a.knee, "accelerator");
}

nlohmann::json knee_json(const analysis::knee_test& k, const std::string& unit) {
  nlohmann::json j = {
      {"test", "extra-sum-of-squares F test: straight line (2 parameters) against a continuous "
               "hinge (intercept, two slopes, breakpoint: 4 parameters), breakpoint searched "
               "between the second smallest and second largest " +
                   unit + " counts"},
      {"alpha", k.alpha},
      {"tested", k.tested},
      {"chosen", k.chosen},
      {"reason", k.reason},
      {"f", k.tested ? number_or_null(k.f) : nlohmann::json(nullptr)},
      {"df1", k.tested ? nlohmann::json(k.df1) : nlohmann::json(nullptr)},
      {"df2", k.tested ? nlohmann::json(k.df2) : nlohmann::json(nullptr)},
      {"p_value", k.tested ? nlohmann::json(k.p_value) : nlohmann::json(nullptr)},
      {"sse_line", k.tested ? nlohmann::json(k.sse_line) : nlohmann::json(nullptr)},
      {"sse_hinge", k.tested ? nlohmann::json(k.hinge.sse) : nlohmann::json(nullptr)},
      {"hinge", nullptr},
      {unit + "s", k.chosen ? nlohmann::json(k.hinge.breakpoint) : nlohmann::json(nullptr)}};
  if (k.tested)
    j["hinge"] = {{"breakpoint", k.hinge.breakpoint},
                  {"intercept", k.hinge.intercept},
                  {"slope_before", k.hinge.slope_before},
                  {"slope_after", k.hinge.slope_after}};
  return j;
}

nlohmann::json projection_json(const analysis::projection& p) {
  return {{"accelerators", p.accelerators},
          {"data_growth", p.growth},
          {"dataset_bytes", p.dataset_bytes},
          {"hit_ratio", p.hit_ratio},
          {"hit_ratio_source", p.hit_ratio_source},
          {"storage_per_read_byte", p.storage_per_read},
          {"scaling_efficiency", p.scaling_efficiency},
          {"reads_bytes_per_s", p.reads},
          {"reads_interval", std::isfinite(p.reads_low)
                                 ? nlohmann::json::array({p.reads_low, p.reads_high})
                                 : nlohmann::json(nullptr)},
          {"required_bytes_per_s", p.required},
          {"required_interval", std::isfinite(p.required_low)
                                    ? nlohmann::json::array({p.required_low, p.required_high})
                                    : nlohmann::json(nullptr)},
          {"provision_bytes_per_s", p.provision},
          {"provision_capped_bytes_per_s", p.provision_capped},
          {"within_limit", optional_json(p.within_limit)},
          {"expected_accelerator_utilization", number_or_null(p.expected_accelerator_utilization)},
          {"backend_holds", optional_json(p.backend_holds)},
          {"max_accelerators_at_threshold", optional_json(p.max_accelerators)},
          {"flags", p.flags},
          {"warnings", p.warnings}};
}

} // namespace dlsize::analysis
