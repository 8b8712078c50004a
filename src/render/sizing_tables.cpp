#include "render/sizing_tables.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/units.hpp"
#include "render/answer_render.hpp"
#include "render/human_number.hpp"
#include "render/point_validity_text.hpp"
#include "report/limit_verdict.hpp"

namespace dlsize::render {

using analysis::sizing_series;

std::string median_range(const analysis::value_stats& s, bool rate, bool au) {
  if (s.count == 0)
    return "–";
  const double med = s.median, lo = s.min, hi = s.max;
  if (rate)
    return lo == hi ? fmt::format("{} MB/s", render::human(med / 1e6))
                    : fmt::format("{} MB/s ({}–{})", render::human(med / 1e6),
                                  render::human(lo / 1e6), render::human(hi / 1e6));
  const auto text = [au](double v) { return au ? render::au_text(v) : render::human(v); };
  return lo == hi ? text(med) : fmt::format("{} ({}–{})", text(med), text(lo), text(hi));
}

std::string interval_text(const std::optional<std::pair<double, double>>& iv, bool rate) {
  if (!iv)
    return "–";
  const auto [lo, hi] = *iv;
  return rate ? fmt::format("{:.1f}–{:.1f} MB/s", lo / 1e6, hi / 1e6)
              : fmt::format("{:.4g} to {:.4g}", lo, hi);
}

std::string mb(double v, const char* format) {
  return std::isfinite(v) ? fmt::format(fmt::runtime(format), v / 1e6) : "–";
}

std::string mb(const std::optional<double>& v, const char* format) {
  return v ? mb(*v, format) : "–";
}

std::string rate_text(double v) {
  return units::format_rate_both(v);
}

std::string rate_text(const std::optional<double>& v) {
  return v ? rate_text(*v) : "–";
}

std::string number_text(double v, const char* format) {
  return std::isfinite(v) ? fmt::format(fmt::runtime(format), v) : "–";
}

namespace {

std::string au_cell(double v) {
  return std::isfinite(v) ? render::au_text(v) : "–";
}

std::string yes_no(const std::optional<bool>& b) {
  return b ? (*b ? "yes" : "no") : "not known";
}

// The hit ratio and its source; storage bytes per byte read too where readahead makes them more
// than 1 − h.
std::string hit_cell(const analysis::projection& p) {
  const double h = p.hit_ratio, spr = p.storage_per_read;
  return fmt::format("{}{} ({})", number_text(h, "{:.3f}"),
                     spr > 1 - h + 1e-9 ? fmt::format(", storage ÷ read {:.3f}", spr) : "",
                     p.hit_ratio_source);
}

// The scaling efficiency of the modelled allreduce over its counts, as a model table row.
std::vector<std::string> scaling_row(const analysis::sizing_scaling& sc) {
  std::string curve;
  for (const auto& p : sc.curve)
    curve += fmt::format("{}{:g} ({:g} × {:g}): {:.3f}{}", curve.empty() ? "" : "; ",
                         static_cast<double>(p.accelerators), static_cast<double>(p.layout.nodes),
                         static_cast<double>(p.layout.per_node), p.efficiency,
                         std::isfinite(p.measured_scaling_efficiency)
                             ? fmt::format(" (measured {:.3f})", p.measured_scaling_efficiency)
                             : "");
  return {"scaling efficiency (modelled allreduce)",
          fmt::format("{} over {:g} accelerators per node, overlap {:g}: {}",
                      model::to_string(sc.inputs.allreduce.algorithm),
                      static_cast<double>(sc.inputs.per_node), sc.inputs.allreduce.overlap, curve)};
}

// The fit and the knee test, one row each.
void add_fit_rows(text_table& t, const sizing_series& s) {
  if (s.fit) {
    const auto& f = s.fit->line;
    t.rows.push_back(
        {"line fit, every run (bytes/s = intercept + slope × accelerators)",
         fmt::format("slope {} per accelerator (95 % CI {}), intercept {} (95 % CI {}), "
                     "R² {:.4f}, n {}",
                     rate_text(f.slope), interval_text(s.fit->slope_ci95(), true),
                     rate_text(f.intercept), interval_text(s.fit->intercept_ci95(), true), f.r2,
                     f.n)});
  } else {
    t.rows.push_back({"line fit", "none: fewer than two accelerator counts"});
  }
  const auto& k = s.knee;
  t.rows.push_back({"knee (bandwidth stops growing)", k.reason});
  if (k.tested)
    t.rows.push_back(
        {"knee test", fmt::format("{}; F = {}, df ({}, {}), p = {}, alpha {}",
                                  analysis::knee_test_description("accelerator"),
                                  (std::isfinite(k.f) ? units::format_plain(k.f) : "–"),
                                  number_text(k.df1, "{:g}"), number_text(k.df2, "{:g}"),
                                  number_text(k.p_value, "{:.3g}"), k.alpha)});
}

} // namespace

std::string series_title(const sizing_series& s) {
  return fmt::format("{} on {}, {}, {} I/O, {} dataset", s.workload, s.accelerator, s.backend,
                     s.cache_mode, units::format_bytes_binary(s.dataset_bytes));
}

text_table measured_table(const sizing_series& s) {
  std::vector<double> rates;
  for (const auto& point : s.measured)
    rates.push_back(point.row.read_bytes_per_s.max);
  const rate_unit u = unit_for(rates);
  text_table t{{"accelerators", "runs", fmt::format("bandwidth {} (median, range)", u.name),
                "samples/s", "samples/s per accelerator", "scaling efficiency", "AU", "AU passes",
                "hit ratio", "MLPerf Storage"},
               {}};
  for (const auto& point : s.measured) {
    const auto& m = point.row;
    const auto& bw = m.read_bytes_per_s;
    t.rows.push_back({number_text(m.accelerators, "{:g}"), fmt::format("{}", m.runs),
                      bw.count == 0      ? "–"
                      : bw.min == bw.max ? in_unit(bw.median, u)
                                         : fmt::format("{} ({}–{})", in_unit(bw.median, u),
                                                       in_unit(bw.min, u), in_unit(bw.max, u)),
                      median_range(m.samples_per_s, false),
                      median_range(m.samples_per_s_per_accelerator, false),
                      number_text(m.scaling_efficiency, "{:.3f}"),
                      median_range(m.accelerator_utilization, false, true),
                      fmt::format("{} of {}", m.au_passes, m.runs),
                      m.hit_ratio.count == 0 ? "–" : number_text(m.hit_ratio.median, "{:.3f}"),
                      point.mlperf_validity.rules.verdict()});
  }
  return t;
}

text_table layout_table(const sizing_series& s) {
  text_table t{{"accelerators", "layout (nodes × per node)", "runs", "samples/s",
                "efficiency vs linear", "against the fewest nodes"},
               {}};
  for (const auto& r : s.layouts)
    t.rows.push_back({number_text(r.accelerators, "{:g}"),
                      fmt::format("{:g} × {:g}{}", r.nodes, r.accelerators_per_node,
                                  r.declared ? " (declared)" : ""),
                      number_text(static_cast<double>(r.runs), "{:g}"),
                      median_range(r.samples_per_s, false),
                      number_text(r.efficiency_vs_linear, "{:.3f}"),
                      r.difference_vs_fewest_nodes
                          ? fmt::format("{:+.1f} %", 100 * *r.difference_vs_fewest_nodes)
                          : "–"});
  return t;
}

text_table runs_table(const sizing_series& s) {
  std::vector<double> rates;
  for (const auto& r : s.runs)
    rates.push_back(r.point.read_bytes_per_s);
  const rate_unit u = unit_for(rates);
  const auto signed_cell = [&](const std::optional<double>& v) {
    return v ? (*v >= 0 ? "+" : "−") + in_unit(std::fabs(*v), u) : std::string("–");
  };
  text_table t{{"accelerators", fmt::format("bandwidth {}", u.name),
                fmt::format("fitted {}", u.name), fmt::format("residual {}", u.name), "AU",
                "limited by", "seed", "report"},
               {}};
  for (const auto& r : s.runs)
    // A run the client held back shows what the backend gave at least.
    t.rows.push_back(
        {number_text(r.point.accelerators, "{:g}"),
         (report::client_side(r.point.limit) ? "≥ " : "") + in_unit(r.point.read_bytes_per_s, u),
         r.fitted ? in_unit(*r.fitted, u) : "–", signed_cell(r.residual),
         au_cell(r.point.accelerator_utilization), report::to_string(r.point.limit),
         r.seed.is_null() ? "–" : r.seed.dump(), r.point.file});
  return t;
}

text_table model_table(const sizing_series& s) {
  text_table t{{"figure", "value"}, {}};
  add_fit_rows(t, s);
  const auto& l = s.limits;
  t.rows.push_back(
      {fmt::format("AU below the threshold {:.2f}", s.au_threshold),
       l.first_below_accelerators
           ? fmt::format("from {} accelerators", number_text(l.first_below_accelerators, "{:g}"))
           : "at no measured count"});
  t.rows.push_back(
      {"backend ceiling",
       l.ceiling_bytes_per_s
           ? fmt::format("{} ({})", rate_text(l.ceiling_bytes_per_s), l.ceiling_source)
           : fmt::format("not reached: at least {}", rate_text(l.best_measured_bytes_per_s))});
  t.rows.push_back({"most accelerators at the AU threshold",
                    fmt::format("measured: {}{}; modelled from the ceiling: {}",
                                l.first_below_accelerators ? "" : "at least ",
                                number_text(l.most_passing_accelerators, "{:g}"),
                                number_text(l.modelled_max_accelerators, "{:g}"))});
  t.rows.push_back({"requirement of larger counts", l.requirement_basis});
  t.rows.push_back(
      {"cache in front of the storage",
       fmt::format("{} ({}); measured hit ratio {}; projections use the {} model",
                   units::format_bytes_binary(s.cache.cache_bytes), s.cache.cache_bytes_source,
                   number_text(s.cache.measured_hit_ratio, "{:.3f}"),
                   analysis::cache_model_name(s.cache.model))});
  if (s.scaling)
    t.rows.push_back(scaling_row(*s.scaling));
  if (s.limit_bytes_per_s)
    t.rows.push_back(
        {"physical limit", fmt::format("{} ({})", rate_text(s.limit_bytes_per_s), s.limit_source)});
  return t;
}

namespace {

// Projections of one target that no growth factor changes: one row.
bool same_row(const analysis::projection& a, const analysis::projection& b) {
  const auto near = [](double x, double y) {
    return (std::isnan(x) && std::isnan(y)) ||
           std::fabs(x - y) <= 1e-9 * std::max(1.0, std::fabs(x));
  };
  return a.accelerators == b.accelerators && near(a.required, b.required) &&
         near(a.provision, b.provision) && a.backend_holds == b.backend_holds &&
         a.max_accelerators == b.max_accelerators && a.flags == b.flags;
}

std::string growth_list(const std::vector<double>& g) {
  std::vector<std::string> parts;
  for (double f : g)
    parts.push_back(number_text(f, "{:g}×"));
  return fmt::format("{}", fmt::join(parts, ", "));
}

// The projections with the growth factors of each merged row.
std::vector<std::pair<const analysis::projection*, std::vector<double>>>
merged_projections(const sizing_series& s) {
  std::vector<std::pair<const analysis::projection*, std::vector<double>>> out;
  for (const auto& p : s.projections) {
    if (!out.empty() && same_row(*out.back().first, p)) {
      out.back().second.push_back(p.growth);
      continue;
    }
    out.push_back({&p, {p.growth}});
  }
  return out;
}

} // namespace

text_table projection_table(const sizing_series& s) {
  std::vector<double> rates;
  for (const auto& p : s.projections)
    rates.insert(rates.end(), {p.reads, p.required_high, p.provision});
  const rate_unit u = unit_for(rates);
  text_table t{{"accelerators", "data growth", "hit ratio", fmt::format("reads {}", u.name),
                fmt::format("storage must deliver {} (95 % PI)", u.name),
                fmt::format("provision {}", u.name), "within limit", "backend holds it",
                "expected AU", "most accelerators at threshold", "flags"},
               {}};
  for (const auto& [pp, growth] : merged_projections(s)) {
    const auto& p = *pp;
    t.rows.push_back(
        {number_text(p.accelerators, "{:g}"), growth_list(growth), hit_cell(p), in_unit(p.reads, u),
         std::isfinite(p.required_low)
             ? fmt::format("{} ({}–{})", in_unit(p.required, u), in_unit(p.required_low, u),
                           in_unit(p.required_high, u))
             : in_unit(p.required, u),
         in_unit(p.provision, u), p.within_limit ? yes_no(p.within_limit) : "no limit given",
         yes_no(p.backend_holds), au_cell(p.expected_accelerator_utilization),
         number_text(p.max_accelerators, "{:g}"), fmt::format("{}", fmt::join(p.flags, ", "))});
    if (s.scaling)
      t.rows.back().insert(t.rows.back().begin() + 1, number_text(p.scaling_efficiency, "{:.3f}"));
  }
  if (s.scaling)
    t.header.insert(t.header.begin() + 1, "scaling efficiency");
  return t;
}

std::vector<std::string> projection_notes(const sizing_series& s) {
  std::vector<std::string> out;
  for (const auto& [p, growth] : merged_projections(s))
    if (growth.size() > 1) {
      out.push_back(fmt::format(
          "data growth {} needs the same bandwidth here: {}, so each target is one row",
          growth_list(growth),
          s.cache.cache_bytes > 0
              ? "the cache serves the same share at each size"
              : "no cache in front of the storage (" + s.cache.cache_bytes_source + ")"));
      break;
    }
  for (const auto& p : s.projections)
    for (const auto& w : p.warnings)
      if (std::find(out.begin(), out.end(), w) == out.end())
        out.push_back(w);
  return out;
}

std::vector<std::string> summary_lines(const analysis::sizing_document& sizing) {
  std::vector<std::string> out;
  std::size_t points = 0, qualifying = 0;
  std::string edition = "v2";
  for (const auto& s : sizing.series)
    for (const auto& m : s.measured) {
      ++points;
      qualifying += m.mlperf_validity.qualifies() ? 1 : 0;
      edition = rules_edition_of(m.mlperf_validity);
    }
  if (points > 0)
    out.push_back(qualifying_summary(qualifying, points, edition) + ".");
  return out;
}

std::vector<validity_appendix_entry> validity_appendix(const analysis::sizing_document& sizing) {
  std::vector<validity_appendix_entry> out;
  for (const auto& s : sizing.series)
    for (const auto& m : s.measured)
      out.push_back({fmt::format("{}, {:g} accelerators: {}", s.backend, m.row.accelerators,
                                 point_validity_cell(m.mlperf_validity)),
                     point_validity_lines(m.mlperf_validity)});
  return out;
}

std::vector<std::string> assumption_lines(const analysis::sizing_document& sizing) {
  std::vector<std::string> out;
  const auto& o = sizing.options;
  std::string targets, growth;
  for (double v : o.targets)
    targets += (targets.empty() ? "" : ", ") + number_text(v, "{:g}");
  for (double v : o.growth)
    growth += (growth.empty() ? "" : ", ") + number_text(v, "{:g}");
  out.push_back(
      fmt::format("Targets: {} accelerators; data growth {}; headroom {}; cache model {}.", targets,
                  growth, o.headroom, analysis::cache_model_name(o.cache_model)));
  for (const auto& a : sizing.assumptions)
    out.push_back(a);
  return out;
}

text_table object_table(const sizing_series& series) {
  text_table t{{"accelerators", "bandwidth MB/s", "GET/s", "GETs in flight"}, {}};
  if (!series.objects)
    return t;
  for (const auto& r : series.objects->targets)
    t.rows.push_back({number_text(r.accelerators, "{:g}"), mb(r.required_bytes_per_s, "{:.1f}"),
                      number_text(r.requests_per_s, "{:.0f}"),
                      number_text(r.requests_in_flight, "{:.0f}")});
  return t;
}

std::vector<std::string> object_lines(const sizing_series& series) {
  std::vector<std::string> lines;
  if (!series.objects)
    return lines;
  const auto& o = *series.objects;
  if (!o.runs.empty())
    lines.push_back(fmt::format(
        "  S3 GETs    {} runs: {:.3g} GETs of {} per sample, first byte {:.1f} ms, at most {:.0f} "
        "GET/s measured",
        o.runs.size(), o.requests_per_sample, units::format_bytes_binary(o.bytes_per_request),
        1e3 * o.first_byte_s, o.best_requests_per_s));
  for (const auto& t : o.targets)
    lines.push_back(fmt::format("  {:>6.0f} accelerators need {} = {:.0f} GET/s, {:.0f} in flight",
                                t.accelerators, rate_text(t.required_bytes_per_s), t.requests_per_s,
                                t.requests_in_flight));
  lines.push_back(fmt::format("  limit      {}: {}", o.limit, o.limit_reason));
  return lines;
}

std::vector<std::string> object_notes(const sizing_series& series) {
  std::vector<std::string> notes;
  const auto lines = object_lines(series);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (i > 0 && i + 1 < lines.size()) // the targets: object_table has them
      continue;
    std::string l = lines[i].substr(lines[i].find_first_not_of(' '));
    const auto gap = l.find("  ");
    if (gap != std::string::npos)
      l = l.substr(0, gap) + ": " + l.substr(l.find_first_not_of(' ', gap));
    notes.push_back(std::move(l));
  }
  return notes;
}

} // namespace dlsize::render
