#include "render/cache_curve_tables.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "render/svg_chart.hpp"

namespace dlsize::render {
namespace {

std::string residuals_text(const char* name, const nlohmann::json& r) {
  return fmt::format("{} RMS {:.3f}, mean {:+.3f}, largest {:.3f}", name, r["rms"].get<double>(),
                     r["mean"].get<double>(), r["max_abs"].get<double>());
}

} // namespace

std::string cache_curve_title(const nlohmann::json& c) {
  return "Cache curve: " + c["workload"].get<std::string>();
}

text_table cache_curve_table(const nlohmann::json& c) {
  text_table t{{"f (RAM ÷ dataset)", "runs", "hit ratio (median)", "fit", "residuals", "LRU model",
                "never-evict", "storage ÷ read", "fit storage ÷ read"},
               {}};
  for (const auto& k : c["knots"]) {
    const double f = k["f"].get<double>();
    double lo = INFINITY, hi = -INFINITY;
    for (const auto& p : c["points"])
      if (std::abs(p["f"].get<double>() - f) <= f * 1e-6) {
        lo = std::min(lo, p["residual"].get<double>());
        hi = std::max(hi, p["residual"].get<double>());
      }
    const double measured =
        std::clamp(1 - k["measured_storage_per_read_byte"].get<double>(), 0.0, 1.0);
    t.rows.push_back(
        {fmt::format("{:.3g}", f), fmt::format("{}", k["runs"].get<std::size_t>()),
         fmt::format("{:.3f}", measured), fmt::format("{:.3f}", k["hit_ratio"].get<double>()),
         lo == hi ? fmt::format("{:+.3f}", lo) : fmt::format("{:+.3f} to {:+.3f}", lo, hi),
         fmt::format("{:.3f}", k["lru_hit_ratio"].get<double>()),
         fmt::format("{:.3f}", k["never_evict_hit_ratio"].get<double>()),
         fmt::format("{:.3f}", k["measured_storage_per_read_byte"].get<double>()),
         fmt::format("{:.3f}", k["storage_per_read_byte"].get<double>())});
  }
  return t;
}

std::vector<std::string> cache_curve_lines(const nlohmann::json& c) {
  const auto& r = c["residuals"];
  std::vector<std::string> out = {
      c["method"].get<std::string>() + ".",
      fmt::format("Residuals of the hit ratio (measured − curve) over {} runs: {}; {}; {}.",
                  c["points"].size(), residuals_text("fit", r["fit"]),
                  residuals_text("LRU", r["lru"]), residuals_text("never-evict", r["never_evict"])),
      fmt::format("Residuals of storage ÷ read (measured − fit): {}.",
                  residuals_text("fit", r["fit_storage_per_read_byte"]))};
  if (c["readahead_amplification"].is_number())
    out.push_back(fmt::format("Storage bytes per byte read at the smallest f ({:.3g}): {:.2f} "
                              "(readahead amplification where the cache holds little).",
                              c["knots"][0]["f"].get<double>(),
                              c["readahead_amplification"].get<double>()));
  out.push_back(c["usable"].get<bool>()
                    ? "Projections of this workload's grown data use this curve unless "
                      "--cache-model names a model."
                    : fmt::format("Only {} distinct f: too few for a curve; projections use "
                                  "the named model.",
                                  c["distinct_f"].get<std::size_t>()));
  return out;
}

std::string cache_curve_chart(const nlohmann::json& c) {
  svg_chart chart("Hit ratio of the warm epochs against f = client RAM ÷ dataset",
                  "f (client RAM ÷ dataset)", "hit ratio");
  std::vector<xy> runs, fit, lru, never;
  for (const auto& p : c["points"])
    runs.push_back({p["f"].get<double>(), p["hit_ratio"].get<double>()});
  for (const auto& k : c["knots"]) {
    const double f = k["f"].get<double>();
    fit.push_back({f, k["hit_ratio"].get<double>()});
    lru.push_back({f, k["lru_hit_ratio"].get<double>()});
    never.push_back({f, k["never_evict_hit_ratio"].get<double>()});
  }
  chart.line("never-evict model", never, "#2ca02c", true);
  chart.line("LRU model", lru, "#d62728", true);
  chart.line("measured fit", fit, "#1f77b4");
  chart.points("runs", runs, "#555555");
  return chart.render();
}

} // namespace dlsize::render
