#include "render/sizing_tables.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/units.hpp"
#include "render/human_number.hpp"
#include "render/point_validity_text.hpp"

namespace dlsize::render {
namespace {

// Whether the series' runs modelled an allreduce (older documents have no scaling section).
bool has_scaling(const nlohmann::json& s) {
  return s.contains("scaling") && s["scaling"].is_object();
}

} // namespace

std::string median_range(const nlohmann::json& s, bool rate, bool au) {
  if (s.is_null())
    return "–";
  const double med = s["median"], lo = s["min"], hi = s["max"];
  if (rate)
    return lo == hi ? fmt::format("{} MB/s", render::human(med / 1e6))
                    : fmt::format("{} MB/s ({}–{})", render::human(med / 1e6),
                                  render::human(lo / 1e6), render::human(hi / 1e6));
  const auto text = [au](double v) { return au ? render::au_text(v) : render::human(v); };
  return lo == hi ? text(med) : fmt::format("{} ({}–{})", text(med), text(lo), text(hi));
}

std::string interval_text(const nlohmann::json& iv, bool rate) {
  if (!iv.is_array())
    return "–";
  const double lo = iv[0], hi = iv[1];
  return rate ? fmt::format("{:.1f}–{:.1f} MB/s", lo / 1e6, hi / 1e6)
              : fmt::format("{:.4g} to {:.4g}", lo, hi);
}

std::string mb(const nlohmann::json& v, const char* format) {
  return v.is_number() ? fmt::format(fmt::runtime(format), v.get<double>() / 1e6) : "–";
}

namespace {

std::string au_cell(const nlohmann::json& v) {
  return v.is_number() ? render::au_text(v.get<double>()) : "–";
}

std::string yes_no(const nlohmann::json& b) {
  return b.is_boolean() ? (b.get<bool>() ? "yes" : "no") : "not known";
}

// The hit ratio and its source; storage bytes per byte read too where readahead makes them more
// than 1 − h (older documents have no storage_per_read_byte).
std::string hit_cell(const nlohmann::json& p) {
  const double h = p["hit_ratio"].get<double>();
  const double spr = p.value("storage_per_read_byte", 1 - h);
  return fmt::format("{}{} ({})", number_text(p["hit_ratio"], "{:.3f}"),
                     spr > 1 - h + 1e-9 ? fmt::format(", storage ÷ read {:.3f}", spr) : "",
                     p["hit_ratio_source"].get<std::string>());
}

} // namespace

std::string rate_text(const nlohmann::json& v) {
  return v.is_number() ? units::format_rate_both(v.get<double>()) : "–";
}

std::string number_text(const nlohmann::json& v, const char* format) {
  return v.is_number() ? fmt::format(fmt::runtime(format), v.get<double>()) : "–";
}

std::string series_title(const nlohmann::json& s) {
  return fmt::format("{} on {}, {}, {} I/O, {} dataset", s["workload"].get<std::string>(),
                     s["accelerator"].get<std::string>(), s["backend"].get<std::string>(),
                     s["cache_mode"].get<std::string>(),
                     units::format_bytes_binary(s["dataset_bytes"].get<double>()));
}

text_table measured_table(const nlohmann::json& s) {
  text_table t{{"accelerators", "runs", "bandwidth (median, range)", "samples/s",
                "samples/s per accelerator", "scaling efficiency", "AU", "AU passes", "hit ratio",
                "MLPerf Storage"},
               {}};
  for (const auto& m : s["measured"])
    t.rows.push_back(
        {number_text(m["accelerators"], "{:g}"), fmt::format("{}", m["runs"].get<int>()),
         median_range(m["read_bytes_per_s"], true), median_range(m["samples_per_s"], false),
         median_range(m["samples_per_s_per_accelerator"], false),
         number_text(m["scaling_efficiency"], "{:.3f}"),
         median_range(m["accelerator_utilization"], false, true),
         fmt::format("{} of {}", m["au_passes"].get<int>(), m["runs"].get<int>()),
         m["hit_ratio"].is_null() ? "–" : number_text(m["hit_ratio"]["median"], "{:.3f}"),
         point_validity_cell(m.value("mlperf_validity", nlohmann::json()))});
  return t;
}

text_table layout_table(const nlohmann::json& s) {
  text_table t{{"accelerators", "layout (nodes × per node)", "runs", "samples/s",
                "efficiency vs linear", "against the fewest nodes"},
               {}};
  if (!s.contains("layouts"))
    return t;
  for (const auto& r : s["layouts"])
    t.rows.push_back(
        {number_text(r["accelerators"], "{:g}"),
         fmt::format("{:g} × {:g}{}", r["nodes"].get<double>(),
                     r["accelerators_per_node"].get<double>(),
                     r.value("declared", false) ? " (declared)" : ""),
         number_text(r["runs"], "{:g}"), median_range(r["samples_per_s"], false),
         number_text(r["efficiency_vs_linear"], "{:.3f}"),
         r["difference_vs_fewest_nodes"].is_number()
             ? fmt::format("{:+.1f} %", 100 * r["difference_vs_fewest_nodes"].get<double>())
             : "–"});
  return t;
}

text_table runs_table(const nlohmann::json& s) {
  text_table t{{"accelerators", "bandwidth MB/s", "fitted MB/s", "residual MB/s", "AU",
                "limited by", "seed", "report"},
               {}};
  for (const auto& r : s["runs"])
    t.rows.push_back({number_text(r["accelerators"], "{:g}"), mb(r["read_bytes_per_s"], "{:.1f}"),
                      mb(r["fitted"], "{:.1f}"), mb(r["residual"], "{:+.1f}"),
                      au_cell(r["accelerator_utilization"]),
                      r.value("limited_by", std::string("unknown")),
                      r["seed"].is_null() ? "–" : r["seed"].dump(), r["file"].get<std::string>()});
  return t;
}

text_table model_table(const nlohmann::json& s) {
  text_table t{{"figure", "value"}, {}};
  const auto& f = s["fit"];
  if (f.is_object()) {
    t.rows.push_back(
        {"line fit, every run (bytes/s = intercept + slope × accelerators)",
         fmt::format("slope {} per accelerator (95 % CI {}), intercept {} (95 % CI {}), "
                     "R² {:.4f}, n {}",
                     rate_text(f["slope"]), interval_text(f["slope_ci95"], true),
                     rate_text(f["intercept"]), interval_text(f["intercept_ci95"], true),
                     f["r2"].get<double>(), f["n"].get<int>())});
  } else {
    t.rows.push_back({"line fit", "none: fewer than two accelerator counts"});
  }
  const auto& k = s["knee"];
  t.rows.push_back({"knee (bandwidth stops growing)", k["reason"].get<std::string>()});
  if (k["tested"].get<bool>())
    t.rows.push_back(
        {"knee test",
         fmt::format("{}; F = {}, df ({}, {}), p = {}, alpha {}", k["test"].get<std::string>(),
                     (k["f"].is_number() ? units::format_plain(k["f"].get<double>()) : "–"),
                     number_text(k["df1"], "{:g}"), number_text(k["df2"], "{:g}"),
                     number_text(k["p_value"], "{:.3g}"), k["alpha"].get<double>())});
  const auto& au = s["au_knee"];
  t.rows.push_back({fmt::format("AU below the threshold {:.2f}", au["threshold"].get<double>()),
                    au["first_below_accelerators"].is_null()
                        ? "at no measured count"
                        : fmt::format("from {} accelerators",
                                      number_text(au["first_below_accelerators"], "{:g}"))});
  const auto& c = s["ceiling"];
  t.rows.push_back(
      {"backend ceiling",
       c["bytes_per_s"].is_null()
           ? fmt::format("not reached: at least {}", rate_text(c["best_measured_bytes_per_s"]))
           : fmt::format("{} ({})", rate_text(c["bytes_per_s"]), c["source"].get<std::string>())});
  const auto& m = s["max_accelerators_at_threshold"];
  t.rows.push_back(
      {"most accelerators at the AU threshold",
       fmt::format("measured: {}{}; modelled from the ceiling: {}",
                   m["measured_is_lower_bound"].get<bool>() ? "at least " : "",
                   number_text(m["measured"], "{:g}"), number_text(m["modelled"], "{:g}"))});
  t.rows.push_back({"requirement of larger counts", s["requirement"]["basis"].get<std::string>()});
  const auto& cache = s["cache"];
  t.rows.push_back({"cache in front of the storage",
                    fmt::format("{} ({}); measured hit ratio {}; projections use the {} model",
                                units::format_bytes_binary(cache["cache_bytes"].get<double>()),
                                cache["cache_bytes_source"].get<std::string>(),
                                number_text(cache["measured_hit_ratio"], "{:.3f}"),
                                cache["model"].get<std::string>())});
  if (has_scaling(s)) {
    const auto& sc = s["scaling"];
    std::string curve;
    for (const auto& p : sc["curve"])
      curve += fmt::format(
          "{}{:g} ({:g} × {:g}): {:.3f}{}", curve.empty() ? "" : "; ",
          p["accelerators"].get<double>(), p["nodes"].get<double>(),
          p["accelerators_per_node"].get<double>(), p["scaling_efficiency"].get<double>(),
          p["measured_scaling_efficiency"].is_number()
              ? fmt::format(" (measured {:.3f})", p["measured_scaling_efficiency"].get<double>())
              : "");
    t.rows.push_back(
        {"scaling efficiency (modelled allreduce)",
         fmt::format("{} over {:g} accelerators per node, overlap {:g}: {}",
                     sc["algorithm"].get<std::string>(), sc["accelerators_per_node"].get<double>(),
                     sc["overlap"].get<double>(), curve)});
  }
  if (!s["limit_bytes_per_s"].is_null())
    t.rows.push_back({"physical limit", fmt::format("{} ({})", rate_text(s["limit_bytes_per_s"]),
                                                    s["limit_source"].get<std::string>())});
  return t;
}

text_table projection_table(const nlohmann::json& s) {
  const bool scaling = has_scaling(s);
  text_table t{{"accelerators", "data growth", "hit ratio", "reads",
                "storage must deliver (95 % PI)", "provision with headroom", "within limit",
                "backend holds it", "expected AU", "most accelerators at threshold", "flags"},
               {}};
  for (const auto& p : s["projections"]) {
    std::string w;
    for (const auto& x : p["flags"])
      w += (w.empty() ? "" : ", ") + x.get<std::string>();
    t.rows.push_back({number_text(p["accelerators"], "{:g}"),
                      number_text(p["data_growth"], "{:g}×"), hit_cell(p),
                      fmt::format("{:.1f} MB/s", p["reads_bytes_per_s"].get<double>() / 1e6),
                      fmt::format("{:.1f} MB/s ({})", p["required_bytes_per_s"].get<double>() / 1e6,
                                  interval_text(p["required_interval"], true)),
                      fmt::format("{:.1f} MB/s", p["provision_bytes_per_s"].get<double>() / 1e6),
                      p["within_limit"].is_null() ? "no limit given" : yes_no(p["within_limit"]),
                      yes_no(p["backend_holds"]), au_cell(p["expected_accelerator_utilization"]),
                      number_text(p["max_accelerators_at_threshold"], "{:g}"), w});
    if (scaling)
      t.rows.back().insert(t.rows.back().begin() + 1,
                           number_text(p["scaling_efficiency"], "{:.3f}"));
  }
  if (scaling)
    t.header.insert(t.header.begin() + 1, "scaling efficiency");
  return t;
}

std::vector<std::string> projection_notes(const nlohmann::json& s) {
  std::vector<std::string> out;
  for (const auto& p : s["projections"])
    for (const auto& w : p["warnings"])
      if (std::find(out.begin(), out.end(), w.get<std::string>()) == out.end())
        out.push_back(w);
  return out;
}

std::vector<std::string> summary_lines(const nlohmann::json& sizing) {
  std::vector<std::string> out;
  for (const auto& s : sizing["series"]) {
    const auto& m = s["max_accelerators_at_threshold"];
    const double th = s["au_threshold"].get<double>();
    std::string needs;
    for (const auto& p : s["projections"]) {
      if (p["data_growth"].get<double>() != 1.0)
        continue;
      const auto& iv = p["required_interval"];
      needs += fmt::format(
          "{}{} accelerators: {} GB/s{}{}", needs.empty() ? "" : "; ",
          number_text(p["accelerators"], "{:g}"),
          render::human(p["required_bytes_per_s"].get<double>() / 1e9),
          iv.is_array() ? fmt::format(" (95 % PI {}–{})", render::human(iv[0].get<double>() / 1e9),
                                      render::human(iv[1].get<double>() / 1e9))
                        : "",
          has_scaling(s) ? fmt::format(" at scaling efficiency {}",
                                       number_text(p["scaling_efficiency"], "{:.3f}"))
                         : "");
    }
    out.push_back(fmt::format(
        "{}: most accelerators at AU ≥ {}: measured {}{}, modelled {}; ceiling {}. Storage "
        "needed: {}.",
        s["backend"].get<std::string>(), render::au_text(th),
        m["measured_is_lower_bound"].get<bool>() ? "at least " : "",
        number_text(m["measured"], "{:g}"),
        m["modelled"].is_null() ? std::string("not known (storage never limited AU)")
                                : number_text(m["modelled"], "{:g}"),
        s["ceiling"]["bytes_per_s"].is_null()
            ? "not reached (at least " + rate_text(s["ceiling"]["best_measured_bytes_per_s"]) + ")"
            : rate_text(s["ceiling"]["bytes_per_s"]),
        needs.empty() ? "no targets" : needs));
  }
  std::size_t points = 0, qualifying = 0;
  std::string edition = "v2";
  for (const auto& s : sizing["series"])
    for (const auto& m : s["measured"]) {
      ++points;
      qualifying += qualifies(m.value("mlperf_validity", nlohmann::json())) ? 1 : 0;
      edition = rules_edition_of(m.value("mlperf_validity", nlohmann::json()));
    }
  if (points > 0)
    out.push_back(qualifying_line(qualifying, points, edition) +
                  "; per point in each series' Measured table.");
  return out;
}

std::vector<std::string> assumption_lines(const nlohmann::json& sizing) {
  std::vector<std::string> out;
  const auto& o = sizing["inputs"]["options"];
  std::string targets, growth;
  for (const auto& v : o["target_accelerators"])
    targets += (targets.empty() ? "" : ", ") + number_text(v, "{:g}");
  for (const auto& v : o["data_growth"])
    growth += (growth.empty() ? "" : ", ") + number_text(v, "{:g}");
  out.push_back(
      fmt::format("Targets: {} accelerators; data growth {}; headroom {}; cache model {}.", targets,
                  growth, o["headroom"].get<double>(), o["cache_model"].get<std::string>()));
  for (const auto& a : sizing["assumptions"])
    out.push_back(a.get<std::string>());
  return out;
}

text_table object_table(const nlohmann::json& series) {
  text_table t{{"accelerators", "bandwidth MB/s", "GET/s", "GETs in flight"}, {}};
  if (!series.contains("objects"))
    return t;
  for (const auto& r : series["objects"]["targets"])
    t.rows.push_back({number_text(r["accelerators"], "{:g}"),
                      mb(r["required_bytes_per_s"], "{:.1f}"),
                      number_text(r["requests_per_s"], "{:.0f}"),
                      number_text(r["requests_in_flight"], "{:.0f}")});
  return t;
}

std::vector<std::string> object_lines(const nlohmann::json& series) {
  std::vector<std::string> lines;
  if (!series.contains("objects"))
    return lines;
  const auto& o = series["objects"];
  if (!o["runs"].empty())
    lines.push_back(fmt::format(
        "  S3 GETs    {} runs: {:.3g} GETs of {} per sample, first byte {:.1f} ms, at most {:.0f} "
        "GET/s measured",
        o["runs"].size(), o["requests_per_sample"].get<double>(),
        units::format_bytes_binary(o["bytes_per_request"].get<double>()),
        1e3 * o["first_byte_s"].get<double>(), o["best_requests_per_s"].get<double>()));
  for (const auto& t : o["targets"])
    lines.push_back(
        fmt::format("  {:>6.0f} accelerators need {} = {:.0f} GET/s, {:.0f} in flight",
                    t["accelerators"].get<double>(), rate_text(t["required_bytes_per_s"]),
                    t["requests_per_s"].get<double>(), t["requests_in_flight"].get<double>()));
  lines.push_back(fmt::format("  limit      {}: {}", o["limit"].get<std::string>(),
                              o["limit_reason"].get<std::string>()));
  return lines;
}

std::vector<std::string> object_notes(const nlohmann::json& series) {
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
