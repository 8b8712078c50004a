#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "analysis/projection.hpp"
#include "render/answer_chart.hpp"
#include "render/answer_render.hpp"
#include "render/cache_curve_tables.hpp"
#include "render/checkpoint_tables.hpp"
#include "render/goodput_tables.hpp"
#include "render/html_page.hpp"
#include "render/sizing_render.hpp"
#include "render/sizing_tables.hpp"
#include "render/svg_chart.hpp"

namespace dlsize::render {
namespace {

using analysis::sizing_series;

constexpr const char* kBlue = "#1f77b4";
constexpr const char* kRed = "#d62728";
constexpr const char* kGreen = "#2ca02c";
constexpr const char* kGrey = "#555555";
constexpr const char* kKnee = "#ff7f0e"; // a knee: a point in x, not a fit

// Every run's figure (where it has one) against its accelerators.
std::vector<xy> runs_of(const sizing_series& s, double analysis::run_point::*field, double scale) {
  std::vector<xy> p;
  for (const auto& r : s.runs)
    if (std::isfinite(r.point.*field))
      p.push_back({r.point.accelerators, r.point.*field * scale});
  return p;
}

// A fit's line and its 95 % prediction band, or the hinge and the knee once a knee is chosen
// (the straight line over every run then describes neither side of it), in the fit's colour and
// the knee's own. x_hi: the largest measured count; name: "" or what the line is of. Returns
// what it drew, for the caption.
std::string add_fit(svg_chart& c, const std::optional<analysis::sizing_fit>& f,
                    const analysis::knee_test& k, double x_hi, const std::string& name,
                    const char* color) {
  const std::string of = name.empty() ? "" : " (" + name + ")";
  if (f && !k.chosen) {
    std::vector<xy> low, high, fitted;
    for (const auto& q : f->curve) {
      fitted.push_back({q.count, q.fitted / 1e6});
      if (std::isfinite(q.prediction_high) && q.fitted > 0) {
        low.push_back({q.count, analysis::log_interval_low(q.fitted, q.prediction_high) / 1e6});
        high.push_back({q.count, q.prediction_high / 1e6});
      }
    }
    if (!low.empty())
      c.band("95 % prediction band" + of, low, high, color);
    c.line("line fit" + of, fitted, color);
    return low.empty() ? "the least-squares line"
                       : "the least-squares line with its 95 % "
                         "prediction band";
  }
  if (k.chosen) {
    const auto& h = k.hinge;
    const double b = h.breakpoint;
    const double a = h.intercept, s1 = h.slope_before, s2 = h.slope_after;
    c.line("hinge fit" + of,
           {{0, a / 1e6}, {b, (a + s1 * b) / 1e6}, {x_hi, (a + s1 * b + s2 * (x_hi - b)) / 1e6}},
           color, true);
    c.vline(fmt::format("knee {:.3g}", b), b, kKnee);
    return "the hinge fit (dashed) and its knee";
  }
  return "";
}

// Write and restore bandwidth of a checkpoint series against the ranks, each with its fit.
answer_figure checkpoint_chart(const analysis::checkpoint_series_document& s) {
  svg_chart c("Checkpoint bandwidth against ranks", "ranks", "MB/s");
  std::vector<std::string> drawn;
  for (const bool w : {true, false}) {
    const auto& p = w ? s.write : s.read;
    if (!p)
      continue;
    const std::string fit = add_fit(c, p->fit, p->knee, p->measured.back().ranks,
                                    w ? "write" : "restore", w ? kBlue : kGreen);
    if (!fit.empty())
      drawn.push_back(fmt::format("the {}'s {}", w ? "write" : "restore", fit));
    std::vector<xy> runs;
    for (const auto& r : s.runs) {
      const double v = w ? r.write_bytes_per_s : r.read_bytes_per_s;
      if (std::isfinite(v))
        runs.push_back({r.ranks, v / 1e6});
    }
    c.points(w ? "write runs" : "restore runs", runs, w ? kGrey : kGreen);
  }
  return {c.render(),
          fmt::format("Every run's write and restore bandwidth (all ranks: bytes over "
                      "time) against the ranks{}.",
                      drawn.empty() ? "" : fmt::format(", with {}", fmt::join(drawn, " and ")))};
}

answer_figure bandwidth_chart(const sizing_series& s) {
  svg_chart c("Bandwidth against accelerators", "accelerators", "MB/s");
  const double x_hi = s.measured.back().row.accelerators;
  std::string drawn = add_fit(c, s.fit, s.knee, x_hi, "", kBlue);
  if (s.knee.chosen && s.limits.requirement_fit) {
    const double ri = s.limits.requirement_fit->intercept, rs = s.limits.requirement_fit->slope;
    c.line("requirement (the load's)", {{0, ri / 1e6}, {x_hi, (ri + rs * x_hi) / 1e6}}, kGreen,
           true);
    drawn += ", and the load's requirement (dashed green)";
  }
  c.points("runs", runs_of(s, &analysis::run_point::read_bytes_per_s, 1e-6), kGrey);
  return {c.render(), "Every run's bandwidth" + (drawn.empty() ? "" : ", " + drawn) + "."};
}

// The median per count as a line and every run as a point, of one summary field.
svg_chart per_count_chart(const sizing_series& s, analysis::value_stats analysis::count_row::*stats,
                          double analysis::run_point::*field, std::string title,
                          std::string y_label, const char* color) {
  svg_chart c(std::move(title), "accelerators", std::move(y_label));
  std::vector<xy> med;
  for (const auto& m : s.measured)
    if ((m.row.*stats).count > 0)
      med.push_back({m.row.accelerators, (m.row.*stats).median});
  c.line("median", med, color);
  c.points("runs", runs_of(s, field, 1), kGrey);
  return c;
}

std::string au_chart(const sizing_series& s) {
  svg_chart c = per_count_chart(s, &analysis::count_row::accelerator_utilization,
                                &analysis::run_point::accelerator_utilization,
                                "Accelerator utilization against accelerators", "AU", kGreen);
  c.hline(fmt::format("threshold {:.2f}", s.au_threshold), s.au_threshold, kRed);
  return c.render();
}

std::string throughput_chart(const sizing_series& s) {
  return per_count_chart(s, &analysis::count_row::samples_per_s_per_accelerator,
                         &analysis::run_point::samples_per_s_per_accelerator,
                         "Samples/s per accelerator", "samples/s per accelerator", kBlue)
      .render();
}

void add_series(html_page& page, const sizing_series& s) {
  page.heading(2, series_title(s));
  const answer_figure bw = bandwidth_chart(s);
  page.figure(bw.svg, bw.caption);
  page.figure(au_chart(s), "AU of every run and the median per count, against the threshold.");
  page.figure(throughput_chart(s), "Samples/s per accelerator: flat while storage keeps up.");
  page.heading(3, "Measured");
  page.table(measured_table(s));
  if (const auto layouts = layout_table(s); !layouts.rows.empty()) {
    page.heading(3, "Scale-up against scale-out");
    page.table(layouts);
  }
  page.heading(3, "Model");
  page.table(model_table(s));
  page.heading(3, "Projections");
  page.table(projection_table(s));
  page.list(projection_notes(s), "warnings");
  if (s.objects) {
    page.heading(3, "Object store requests");
    page.table(object_table(s));
    page.list(object_notes(s));
  }
  page.heading(3, "Runs");
  page.table(runs_table(s));
  page.list(s.warnings, "warnings");
}

void add_write_path(html_page& page, const analysis::sizing_document& z) {
  page.heading(2, "Write path: checkpoints");
  if (z.checkpoint_series.empty()) {
    page.paragraph(write_path_note(z));
    return;
  }
  for (const auto& s : z.checkpoint_series) {
    page.heading(3, checkpoint_title(s));
    const answer_figure chart = checkpoint_chart(s);
    page.figure(chart.svg, chart.caption);
    page.table(checkpoint_measured_table(s));
    page.table(checkpoint_model_table(s));
    page.table(checkpoint_runs_table(s));
    page.list(s.warnings, "warnings");
  }
}

} // namespace

std::string sizing_html(const analysis::sizing_document& z) {
  html_page page("Storage sizing report");
  page.paragraph(fmt::format("Made {} by dlsize {} from {} reports. Bandwidth is in MB/s (10⁶ "
                             "bytes per second); the tables give MiB/s too.",
                             z.created_at, z.tool_version, z.reports.size()));
  page.heading(2, "The answer");
  for (const auto& a : z.answers) {
    add_answer_html(page, a, z.requirements.at(a.requirement));
    const answer_figure chart = answer_chart(z, a);
    page.figure(chart.svg, chart.caption);
  }
  auto summary = summary_lines(z);
  for (auto& l : checkpoint_summary_lines(z))
    summary.push_back(std::move(l));
  page.list(summary);
  for (const auto& s : z.series)
    add_series(page, s);
  if (z.series.empty())
    page.paragraph("Read path: " + z.read_path.note);
  add_write_path(page, z);
  add_goodput_html(page, z.goodput);
  for (const auto& c : z.cache_curves) {
    page.heading(2, cache_curve_title(c));
    page.figure(cache_curve_chart(c), "Every run's hit ratio in the warm epochs, the fitted "
                                      "curve, and the two cache models.");
    page.table(cache_curve_table(c));
    page.list(cache_curve_lines(c));
  }
  page.heading(2, "Assumptions");
  page.list(assumption_lines(z));
  if (const auto appendix = validity_appendix(z); !appendix.empty()) {
    page.heading(2, "Appendix: MLPerf Storage validity per point");
    for (const auto& e : appendix) {
      page.paragraph(e.point);
      page.list(e.lines);
    }
  }
  page.heading(2, "Reproduce");
  std::string cmds;
  for (const auto& c : z.reproduce)
    cmds += c + "\n";
  page.code(cmds);
  page.list(z.warnings, "warnings");
  return page.render();
}

} // namespace dlsize::render
