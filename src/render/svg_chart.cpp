#include "render/svg_chart.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "render/html_page.hpp"

namespace dlsize::render {
// One axis: its ends, its ticks, and whether it is logarithmic (then lo and hi are the values
// at its ends, positions are in log10).
struct axis {
  double lo = 0, hi = 1, step = 1;
  bool log = false;
  std::vector<double> ticks;
  // Where v lies along the axis, 0 at lo and 1 at hi.
  double at(double v) const {
    return log ? (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo))
               : (v - lo) / (hi - lo);
  }
};

namespace {

constexpr int kLeft = 70, kRight = 20, kTop = 40, kBottom = 50;

axis axis_for(double lo, double hi) {
  if (!std::isfinite(hi) || hi <= lo)
    hi = lo + 1;
  axis a;
  a.step = nice_step(hi - lo);
  a.lo = std::floor(lo / a.step) * a.step;
  a.hi = std::ceil(hi / a.step) * a.step;
  for (double v = a.lo; v <= a.hi + a.step * 1e-9; v += a.step)
    a.ticks.push_back(v);
  return a;
}

// A logarithmic axis over [lo, hi] (both > 0), its ends on the 1-2-5 ticks around them.
axis log_axis_for(double lo, double hi) {
  if (!(lo > 0) || !std::isfinite(lo))
    lo = 1;
  if (!(hi > lo) || !std::isfinite(hi))
    hi = lo * 10;
  axis a;
  a.log = true;
  std::vector<double> steps;
  for (double decade = std::pow(10.0, std::floor(std::log10(lo)) - 1); decade <= hi * 10;
       decade *= 10)
    for (double m : {1.0, 2.0, 5.0})
      steps.push_back(m * decade);
  a.lo = steps.front();
  a.hi = steps.back();
  for (double v : steps) {
    if (v <= lo * (1 + 1e-9))
      a.lo = v;
    if (v >= hi * (1 - 1e-9)) {
      a.hi = v;
      break;
    }
  }
  for (double v : steps)
    if (v >= a.lo * (1 - 1e-9) && v <= a.hi * (1 + 1e-9))
      a.ticks.push_back(v);
  return a;
}

// Plain numbers on the axes: 12,000 rather than 1.2e+04, 0.0005 rather than 5e-04.
std::string tick_text(double v) {
  const double a = std::fabs(v);
  if (a < 1e-12)
    return "0";
  if (a >= 1e4 && a < 1e15) {
    const std::string digits = fmt::format("{:.0f}", a);
    std::string grouped = v < 0 ? "-" : "";
    for (std::size_t i = 0; i < digits.size(); ++i) {
      if (i > 0 && (digits.size() - i) % 3 == 0)
        grouped += ',';
      grouped += digits[i];
    }
    return grouped;
  }
  if (a < 1e-4) {
    std::string s = fmt::format("{:.10f}", v);
    s.erase(s.find_last_not_of('0') + 1);
    return s;
  }
  return fmt::format("{:g}", v);
}

std::string open_svg(int width, int height, const std::string& title) {
  return fmt::format("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" "
                     "viewBox=\"0 0 {0} {1}\" role=\"img\" aria-label=\"{2}\" "
                     "font-family=\"sans-serif\" font-size=\"12\">\n<title>{2}</title>\n"
                     "<rect x=\"0\" y=\"0\" width=\"{0}\" height=\"{1}\" fill=\"#ffffff\"/>\n"
                     "<text x=\"{3}\" y=\"20\" font-size=\"14\" font-weight=\"bold\">{2}</text>\n",
                     width, height, html_escape(title), kLeft);
}

} // namespace

double nice_step(double span, int ticks) {
  if (!(span > 0))
    return 1;
  const double raw = span / ticks;
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  const double norm = raw / mag;
  const double f = norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10;
  return f * mag;
}

svg_chart::svg_chart(std::string title, std::string x_label, std::string y_label)
    : m_title(std::move(title)), m_x_label(std::move(x_label)), m_y_label(std::move(y_label)) {}

void svg_chart::points(std::string label, std::vector<xy> p, std::string color) {
  m_series.push_back({kind::points, std::move(label), std::move(color), std::move(p), {}});
}

void svg_chart::lower_bounds(std::string label, std::vector<xy> p, std::string color) {
  m_series.push_back({kind::lower_bounds, std::move(label), std::move(color), std::move(p), {}});
}

void svg_chart::intervals(std::string label, std::vector<xy> p, std::vector<xy> low,
                          std::vector<xy> high, std::string color) {
  m_series.push_back({kind::intervals, std::move(label), std::move(color), std::move(p),
                      std::move(high), std::move(low)});
}

void svg_chart::y_span(double lo, double hi) {
  m_y_span = std::make_pair(lo, hi);
}

void svg_chart::log_axes(bool x, bool y) {
  m_log_x = x;
  m_log_y = y;
}

void svg_chart::line(std::string label, std::vector<xy> p, std::string color, bool dashed) {
  m_series.push_back(
      {dashed ? kind::dashed : kind::line, std::move(label), std::move(color), std::move(p), {}});
}

void svg_chart::band(std::string label, std::vector<xy> low, std::vector<xy> high,
                     std::string color) {
  m_series.push_back(
      {kind::band, std::move(label), std::move(color), std::move(low), std::move(high)});
}

void svg_chart::hline(std::string label, double y, std::string color) {
  m_series.push_back({kind::hline, std::move(label), std::move(color), {{0, y}}, {}});
}

void svg_chart::vline(std::string label, double x, std::string color) {
  m_series.push_back({kind::vline, std::move(label), std::move(color), {{x, 0}}, {}});
}

struct svg_chart::frame {
  axis ax, ay;
  double top = 0, pw = 0, ph = 0;
  double sx(double x) const { return kLeft + ax.at(x) * pw; }
  double sy(double y) const { return top + ph - ay.at(y) * ph; }
  // Whether a point can be drawn: finite, and above zero on a logarithmic axis.
  bool drawable(const xy& q) const {
    return std::isfinite(q.x) && std::isfinite(q.y) && (!ax.log || q.x > 0) && (!ay.log || q.y > 0);
  }
};

// Axes from zero that hold every series, and the legend's place: between the title and the
// plot, in as many rows as it needs (each entry's x and row); the chart grows by those rows.
svg_chart::frame svg_chart::plot_frame(int width, int& height,
                                       std::vector<std::pair<double, int>>& legend_at) const {
  double x_hi = 0, y_hi = 0, y_lo = 0;
  double x_min = std::numeric_limits<double>::infinity(), y_min = x_min; // smallest above 0
  for (const auto& s : m_series) {
    for (const auto& q : s.p) {
      if (s.k != kind::hline) {
        x_hi = std::max(x_hi, q.x);
        if (q.x > 0)
          x_min = std::min(x_min, q.x);
      }
      if (s.k != kind::vline && std::isfinite(q.y)) {
        y_hi = std::max(y_hi, q.y);
        y_lo = std::min(y_lo, q.y);
        if (q.y > 0)
          y_min = std::min(y_min, q.y);
      }
    }
    for (const auto& q : s.high)
      if (std::isfinite(q.y))
        y_hi = std::max(y_hi, q.y);
    for (const auto& q : s.low)
      if (std::isfinite(q.y)) {
        y_lo = std::min(y_lo, q.y);
        if (q.y > 0)
          y_min = std::min(y_min, q.y);
      }
  }
  double lx = kLeft;
  int row = 0;
  for (const auto& s : m_series) {
    const double item = 28 + 6.5 * static_cast<double>(s.label.size());
    if (lx + item > width - kRight && lx > kLeft) {
      lx = kLeft;
      ++row;
    }
    legend_at.emplace_back(lx, row);
    lx += item;
  }
  const int rows = legend_at.empty() ? 0 : row + 1;
  frame f;
  f.top = 36 + 16 * rows;
  height += 16 * rows;
  f.ax = m_log_x ? log_axis_for(x_min, x_hi) : axis_for(0, x_hi);
  f.ay = m_y_span  ? axis_for(m_y_span->first, m_y_span->second)
         : m_log_y ? log_axis_for(y_min, y_hi)
                   : axis_for(y_lo, y_hi * 1.05);
  f.pw = width - kLeft - kRight;
  f.ph = height - f.top - kBottom;
  return f;
}

// The grid, the ticks and their values, the plot's box and the axes' labels.
std::string svg_chart::axes_svg(const frame& f, int height) const {
  const axis& ax = f.ax;
  const axis& ay = f.ay;
  std::string out;
  for (double v : ay.ticks) {
    out += fmt::format("<line x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" "
                       "stroke=\"#e3e3e3\"/>\n<text class=\"tick-y\" x=\"{:.1f}\" y=\"{:.1f}\" "
                       "text-anchor=\"end\">{}</text>\n",
                       f.sx(ax.lo), f.sy(v), f.sx(ax.hi), f.sy(v), f.sx(ax.lo) - 6, f.sy(v) + 4,
                       tick_text(v));
  }
  for (double v : ax.ticks) {
    out += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" "
                       "stroke=\"#888888\"/>\n<text class=\"tick-x\" x=\"{0:.1f}\" y=\"{3:.1f}\" "
                       "text-anchor=\"middle\">{4}</text>\n",
                       f.sx(v), f.sy(ay.lo), f.sy(ay.lo) + 5, f.sy(ay.lo) + 18, tick_text(v));
  }
  out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{:.1f}\" height=\"{:.1f}\" fill=\"none\" "
                     "stroke=\"#888888\"/>\n",
                     kLeft, f.top, f.pw, f.ph);
  out += fmt::format("<text x=\"{:.1f}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                     kLeft + f.pw / 2, height - 10, html_escape(m_x_label));
  out += fmt::format("<text x=\"14\" y=\"{:.1f}\" text-anchor=\"middle\" "
                     "transform=\"rotate(-90 14 {:.1f})\">{}</text>\n",
                     f.top + f.ph / 2, f.top + f.ph / 2, html_escape(m_y_label));
  return out;
}

std::string svg_chart::series_svg(const series& s, const frame& f) {
  const std::string c = html_escape(s.color);
  std::string pts;
  switch (s.k) {
  case kind::band:
    for (const auto& q : s.high)
      if (f.drawable(q))
        pts += fmt::format("{:.1f},{:.1f} ", f.sx(q.x), f.sy(q.y));
    for (auto it = s.p.rbegin(); it != s.p.rend(); ++it)
      if (f.drawable(*it))
        pts += fmt::format("{:.1f},{:.1f} ", f.sx(it->x), f.sy(it->y));
    return fmt::format("<polygon class=\"band\" points=\"{}\" fill=\"{}\" "
                       "fill-opacity=\"0.18\" stroke=\"none\"/>\n",
                       pts, c);
  case kind::line:
  case kind::dashed:
    for (const auto& q : s.p)
      if (f.drawable(q))
        pts += fmt::format("{:.1f},{:.1f} ", f.sx(q.x), f.sy(q.y));
    return fmt::format(
        "<polyline points=\"{}\" fill=\"none\" stroke=\"{}\" stroke-width=\"2\"{}/>\n", pts, c,
        s.k == kind::dashed ? " stroke-dasharray=\"6 4\"" : "");
  case kind::points:
    for (const auto& q : s.p)
      if (f.drawable(q))
        pts += fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"4\" fill=\"{}\" "
                           "fill-opacity=\"0.8\"/>\n",
                           f.sx(q.x), f.sy(q.y), c);
    return pts;
  case kind::intervals:
    for (std::size_t i = 0; i < s.p.size() && i < s.low.size() && i < s.high.size(); ++i) {
      const xy& q = s.p[i];
      if (!f.drawable(q) || !f.drawable(s.low[i]) || !f.drawable(s.high[i]))
        continue;
      const double x = f.sx(q.x), lo = f.sy(s.low[i].y), hi = f.sy(s.high[i].y);
      pts += fmt::format("<g class=\"interval\" stroke=\"{0}\" stroke-width=\"1.5\"><line "
                         "x1=\"{1:.1f}\" y1=\"{2:.1f}\" x2=\"{1:.1f}\" y2=\"{3:.1f}\"/><line "
                         "x1=\"{4:.1f}\" y1=\"{2:.1f}\" x2=\"{5:.1f}\" y2=\"{2:.1f}\"/><line "
                         "x1=\"{4:.1f}\" y1=\"{3:.1f}\" x2=\"{5:.1f}\" y2=\"{3:.1f}\"/></g>\n"
                         "<circle cx=\"{1:.1f}\" cy=\"{6:.1f}\" r=\"4\" fill=\"{0}\"/>\n",
                         c, x, lo, hi, x - 5, x + 5, f.sy(q.y));
    }
    return pts;
  case kind::lower_bounds:
    for (const auto& q : s.p)
      if (f.drawable(q)) {
        const double x = f.sx(q.x), y = f.sy(q.y);
        pts += fmt::format("<polygon class=\"lower-bound\" points=\"{:.1f},{:.1f} {:.1f},{:.1f} "
                           "{:.1f},{:.1f}\" fill=\"#ffffff\" stroke=\"{}\" stroke-width=\"2\"/>\n",
                           x, y - 6, x - 5.5, y + 4, x + 5.5, y + 4, c);
      }
    return pts;
  case kind::hline:
    return fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" y2=\"{1:.1f}\" "
                       "stroke=\"{3}\" stroke-dasharray=\"3 3\" stroke-width=\"1.5\"/>\n",
                       f.sx(f.ax.lo), f.sy(s.p[0].y), f.sx(f.ax.hi), c);
  case kind::vline:
    return fmt::format("<line x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\" "
                       "stroke=\"{3}\" stroke-dasharray=\"3 3\" stroke-width=\"1.5\"/>\n",
                       f.sx(s.p[0].x), f.sy(f.ay.lo), f.sy(f.ay.hi), c);
  }
  return "";
}

std::string svg_chart::render(int width, int height) const {
  std::vector<std::pair<double, int>> legend_at; // each entry's x and row
  const frame f = plot_frame(width, height, legend_at);
  std::string out = open_svg(width, height, m_title) + axes_svg(f, height);
  std::string legend;
  for (std::size_t i = 0; i < m_series.size(); ++i) {
    const auto& s = m_series[i];
    out += fmt::format("<g class=\"series\" data-label=\"{}\">\n{}</g>\n", html_escape(s.label),
                       series_svg(s, f));
    const auto [ex, erow] = legend_at[i];
    const int ey = 30 + 16 * erow;
    legend += fmt::format("<rect x=\"{:.1f}\" y=\"{}\" width=\"12\" height=\"12\" fill=\"{}\"/>"
                          "<text x=\"{:.1f}\" y=\"{}\">{}</text>\n",
                          ex, ey, html_escape(s.color), ex + 16, ey + 10, html_escape(s.label));
  }
  out += legend + "</svg>\n";
  return out;
}

std::string svg_bar_chart(const std::string& title, const std::string& y_label,
                          const std::vector<bar>& bars, std::optional<reference_line> threshold,
                          int width, int height) {
  double hi = threshold ? threshold->y : 0;
  for (const auto& b : bars)
    for (double v : {b.value, b.high})
      if (std::isfinite(v))
        hi = std::max(hi, v);
  const axis ay = axis_for(0, hi * 1.05);
  const double pw = width - kLeft - kRight, ph = height - kTop - kBottom;
  auto sy = [&](double y) { return kTop + ph - (y - ay.lo) / (ay.hi - ay.lo) * ph; };
  std::string out = open_svg(width, height, title);
  for (double v = ay.lo; v <= ay.hi + ay.step * 1e-9; v += ay.step)
    out += fmt::format(
        "<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#e3e3e3\"/>\n"
        "<text x=\"{}\" y=\"{:.1f}\" text-anchor=\"end\">{}</text>\n",
        kLeft, sy(v), kLeft + pw, sy(v), kLeft - 6, sy(v) + 4, tick_text(v));
  out += fmt::format("<text x=\"14\" y=\"{:.1f}\" text-anchor=\"middle\" "
                     "transform=\"rotate(-90 14 {:.1f})\">{}</text>\n",
                     kTop + ph / 2, kTop + ph / 2, html_escape(y_label));
  static const char* colors[] = {"#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b"};
  const double slot = pw / static_cast<double>(std::max<std::size_t>(1, bars.size()));
  for (std::size_t i = 0; i < bars.size(); ++i) {
    const bar& b = bars[i];
    const double v = std::isfinite(b.value) ? b.value : 0;
    const double x = kLeft + slot * static_cast<double>(i) + slot * 0.2, mid = x + slot * 0.3;
    out += fmt::format("<rect class=\"bar\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" "
                       "height=\"{:.1f}\" fill=\"{}\"/>\n",
                       x, sy(v), slot * 0.6, sy(ay.lo) - sy(v), colors[i % 6]);
    // The spread of the runs (min to max) as an error bar.
    const bool spread = std::isfinite(b.low) && std::isfinite(b.high) && b.high > b.low;
    if (spread)
      out += fmt::format("<g class=\"error-bar\" stroke=\"#222222\"><line x1=\"{0:.1f}\" "
                         "y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\"/><line x1=\"{3:.1f}\" "
                         "y1=\"{1:.1f}\" x2=\"{4:.1f}\" y2=\"{1:.1f}\"/><line x1=\"{3:.1f}\" "
                         "y1=\"{2:.1f}\" x2=\"{4:.1f}\" y2=\"{2:.1f}\"/></g>\n",
                         mid, sy(b.low), sy(b.high), mid - 5, mid + 5);
    out += fmt::format("<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n"
                       "<text x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\" "
                       "font-size=\"11\">{}</text>\n",
                       mid + (spread ? 14 : 0), sy(v) - 4, tick_text(std::round(v * 1000) / 1000),
                       mid, kTop + ph + 16, html_escape(b.label));
  }
  if (threshold)
    out += fmt::format(
        "<line class=\"threshold\" x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2:.1f}\" "
        "y2=\"{1:.1f}\" stroke=\"#d62728\" stroke-dasharray=\"6 4\"/>\n<text "
        "x=\"{2:.1f}\" y=\"{3:.1f}\" text-anchor=\"end\" fill=\"#d62728\">{4}</text>\n",
        kLeft, sy(threshold->y), kLeft + pw, sy(threshold->y) - 4, html_escape(threshold->label));
  out += fmt::format(
      "<line x1=\"{}\" y1=\"{:.1f}\" x2=\"{:.1f}\" y2=\"{:.1f}\" stroke=\"#888888\"/>\n", kLeft,
      sy(ay.lo), kLeft + pw, sy(ay.lo));
  return out + "</svg>\n";
}

} // namespace dlsize::render
