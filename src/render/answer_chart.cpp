#include "render/answer_chart.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "analysis/projection.hpp"
#include "render/answer_render.hpp"
#include "render/svg_chart.hpp"
#include "report/limit_verdict.hpp"

namespace dlsize::render {
namespace {

constexpr const char* kRequirement = "#2ca02c";
constexpr const char* kProvision = "#1b5e20";

// The series' fit over its measured counts: the hinge where a knee was chosen, else the line.
void add_fit(svg_chart& c, const analysis::sizing_series& s, const std::string& color, double scale,
             std::vector<std::string>& drawn) {
  const double x_lo = s.measured.front().row.accelerators;
  const double x_hi = s.measured.back().row.accelerators;
  if (s.knee.chosen) {
    const auto& h = s.knee.hinge;
    const double b = h.breakpoint, a = h.intercept;
    const auto y = [&](double x) {
      return (x <= b ? a + h.slope_before * x : a + h.slope_before * b + h.slope_after * (x - b)) *
             scale;
    };
    c.line(s.backend + ": hinge fit", {{x_lo, y(x_lo)}, {b, y(b)}, {x_hi, y(x_hi)}}, color);
    c.vline(fmt::format("{}: knee at {:.3g}", s.backend, b), b, color);
    drawn.push_back("hinge and knee");
    return;
  }
  if (!s.fit)
    return;
  std::vector<xy> line;
  for (const auto& q : s.fit->curve)
    if (q.count >= x_lo && q.count <= x_hi)
      line.push_back({q.count, q.fitted * scale});
  c.line(s.backend + ": line fit", line, color);
  drawn.push_back("line fit");
}

void add_runs(svg_chart& c, const analysis::sizing_series& s, const std::string& color,
              double scale, bool& any_lower) {
  std::vector<xy> runs, lower;
  for (const auto& r : s.runs)
    (report::client_side(r.point.limit) ? lower : runs)
        .push_back({r.point.accelerators, r.point.read_bytes_per_s * scale});
  if (!runs.empty())
    c.points(s.backend + ": runs", runs, color);
  if (!lower.empty()) {
    c.lower_bounds(s.backend + ": ≥ (client-limited)", lower, color);
    any_lower = true;
  }
}

// Counts from a to b, 24 a decade on a log scale, with b itself.
std::vector<double> log_grid(double a, double b) {
  std::vector<double> out;
  for (double n = a; n < b; n *= std::pow(10.0, 1.0 / 24))
    out.push_back(n);
  out.push_back(b);
  return out;
}

// The requirement from the smallest measured count to the largest target, with its band and
// the provision; scaled so that it meets the answer's rows at the targets (an allreduce's
// efficiency, a cache the rows assume).
void add_requirement(svg_chart& c, const analysis::workload_requirement& r,
                     const analysis::sizing_answer& a, double x_lo, double headroom, double scale) {
  const auto& last = a.rows.back();
  const double at_last = r.reads_at(last.accelerators);
  const double k = at_last > 0 && last.required > 0 ? last.required / at_last : 1.0;
  std::vector<xy> est, low, high, provision;
  for (double n : log_grid(x_lo, last.accelerators)) {
    const double e = r.reads_at(n) * k, half = r.half_width_at(n) * k;
    est.push_back({n, e * scale});
    if (std::isfinite(half)) {
      high.push_back({n, (e + half) * scale});
      low.push_back({n, analysis::log_interval_low(e, e + half) * scale});
    }
    provision.push_back({n, headroom * (std::isfinite(half) ? e + half : e) * scale});
  }
  if (!low.empty())
    c.band("requirement: 95 % prediction band", low, high, kRequirement);
  c.line("requirement (" + r.source() + ")", est, kRequirement);
  c.line(fmt::format("provision ({:g} × the band's top)", headroom), provision, kProvision, true);
}

} // namespace

const char* backend_color(std::size_t i) {
  static const char* colors[] = {"#1f77b4", "#ff7f0e", "#9467bd", "#8c564b",
                                 "#e377c2", "#17becf", "#7f7f7f", "#bcbd22"};
  return colors[i % 8];
}

answer_figure answer_chart(const analysis::sizing_document& d, const analysis::sizing_answer& a) {
  const auto ss = analysis::answer_series(d, a);
  const auto& r = d.requirements.at(a.requirement);
  std::vector<double> rates;
  for (const auto& row : a.rows)
    rates.push_back(row.provision);
  const rate_unit u = unit_for(rates);
  const double scale = 1 / u.scale;
  svg_chart c(fmt::format("{} on {}: bandwidth against accelerators", a.workload, a.accelerator),
              "accelerators (log scale)", fmt::format("{} (log scale)", u.name));
  c.log_axes(true, true);
  std::vector<std::string> fits;
  bool any_lower = false;
  double x_lo = 1;
  for (std::size_t i = 0; i < ss.size(); ++i) {
    const std::string color = backend_color(i);
    if (ss[i]->measured.empty())
      continue;
    x_lo = i == 0 ? ss[i]->measured.front().row.accelerators
                  : std::min(x_lo, ss[i]->measured.front().row.accelerators);
    add_fit(c, *ss[i], color, scale, fits);
    add_runs(c, *ss[i], color, scale, any_lower);
  }
  if (!a.rows.empty())
    add_requirement(c, r, a, x_lo, d.options.headroom, scale);
  std::sort(fits.begin(), fits.end());
  fits.erase(std::unique(fits.begin(), fits.end()), fits.end());
  std::string caption = fmt::format(
      "Each backend in its own colour: its runs' read bandwidth{}{}. In green: the load's "
      "requirement ({}) from the smallest measured count to {:g} accelerators with its 95 % "
      "prediction band, and dashed, the provision. Both axes are logarithmic.",
      any_lower ? " (hollow triangles: runs the client held back, lower bounds ≥ of the backend)"
                : "",
      fits.empty() ? "" : fmt::format(" and its {}", fmt::join(fits, " or ")), r.basis(),
      a.rows.empty() ? 0.0 : a.rows.back().accelerators);
  return {c.render(760, 420), caption};
}

} // namespace dlsize::render
