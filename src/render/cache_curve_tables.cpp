#include "render/cache_curve_tables.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "analysis/cache_model.hpp"
#include "render/svg_chart.hpp"

namespace dlsize::render {
namespace {

std::string residuals_text(const char* name, const analysis::cache_residuals& r) {
  return fmt::format("{} RMS {:.3f}, mean {:+.3f}, largest {:.3f}", name, r.rms, r.mean, r.max_abs);
}

} // namespace

std::string cache_curve_title(const analysis::sizing_cache_curve& c) {
  return "Cache curve: " + c.workload;
}

text_table cache_curve_table(const analysis::sizing_cache_curve& w) {
  const analysis::cache_curve& c = w.curve;
  text_table t{{"f (RAM ÷ dataset)", "runs", "hit ratio (median)", "fit", "residuals", "LRU model",
                "never-evict", "storage ÷ read", "fit storage ÷ read"},
               {}};
  for (const auto& k : c.knots) {
    const double f = k.f;
    double lo = INFINITY, hi = -INFINITY;
    for (const auto& p : c.points)
      if (std::abs(p.f - f) <= f * 1e-6) {
        const double residual = p.hit_ratio() - c.hit_ratio_at(p.f);
        lo = std::min(lo, residual);
        hi = std::max(hi, residual);
      }
    const double measured = std::clamp(1 - k.measured_storage_per_read, 0.0, 1.0);
    t.rows.push_back(
        {fmt::format("{:.3g}", f), fmt::format("{}", k.runs), fmt::format("{:.3f}", measured),
         fmt::format("{:.3f}", c.hit_ratio_at(k.f)),
         lo == hi ? fmt::format("{:+.3f}", lo) : fmt::format("{:+.3f} to {:+.3f}", lo, hi),
         fmt::format("{:.3f}", analysis::lru_hit_ratio(k.f, 1)),
         fmt::format("{:.3f}", analysis::never_evict_hit_ratio(k.f, 1)),
         fmt::format("{:.3f}", k.measured_storage_per_read),
         fmt::format("{:.3f}", k.storage_per_read)});
  }
  return t;
}

std::vector<std::string> cache_curve_lines(const analysis::sizing_cache_curve& w) {
  const analysis::cache_curve& c = w.curve;
  std::vector<std::string> out = {
      analysis::cache_curve_method() + ".",
      fmt::format("Residuals of the hit ratio (measured − curve) over {} runs: {}; {}; {}.",
                  c.points.size(), residuals_text("fit", c.fit_residuals()),
                  residuals_text("LRU", c.lru_residuals()),
                  residuals_text("never-evict", c.never_evict_residuals())),
      fmt::format("Residuals of storage ÷ read (measured − fit): {}.",
                  residuals_text("fit", c.fit_storage_residuals()))};
  if (!c.knots.empty())
    out.push_back(fmt::format("Storage bytes per byte read at the smallest f ({:.3g}): {:.2f} "
                              "(readahead amplification where the cache holds little).",
                              c.knots[0].f, c.readahead_amplification()));
  out.push_back(c.usable() ? "Projections of this workload's grown data use this curve unless "
                             "--cache-model names a model."
                           : fmt::format("Only {} distinct f: too few for a curve; projections "
                                         "use the named model.",
                                         c.knots.size()));
  return out;
}

std::string cache_curve_chart(const analysis::sizing_cache_curve& w) {
  const analysis::cache_curve& c = w.curve;
  svg_chart chart("Hit ratio of the warm epochs against f = client RAM ÷ dataset",
                  "f (client RAM ÷ dataset)", "hit ratio");
  std::vector<xy> runs, fit, lru, never;
  for (const auto& p : c.points)
    runs.push_back({p.f, p.hit_ratio()});
  for (const auto& k : c.knots) {
    fit.push_back({k.f, c.hit_ratio_at(k.f)});
    lru.push_back({k.f, analysis::lru_hit_ratio(k.f, 1)});
    never.push_back({k.f, analysis::never_evict_hit_ratio(k.f, 1)});
  }
  chart.line("never-evict model", never, "#2ca02c", true);
  chart.line("LRU model", lru, "#d62728", true);
  chart.line("measured fit", fit, "#1f77b4");
  chart.points("runs", runs, "#555555");
  return chart.render();
}

} // namespace dlsize::render
