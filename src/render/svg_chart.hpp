#pragma once
// Small inline SVG charts for the HTML reports: an x-y chart of points, lines, a shaded band
// and reference lines on linear axes from zero (or logarithmic ones, which hold counts from 1 to
// thousands and bandwidths over decades), and a bar chart. The output is a standalone <svg>
// element (no scripts, no external fonts or styles); each series is a <g class="series"> whose
// data-label is its legend, so a test can count what a chart draws.
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace dlsize::render {

struct xy {
  double x = 0, y = 0;
};

class svg_chart {
public:
  svg_chart(std::string title, std::string x_label, std::string y_label);

  void points(std::string label, std::vector<xy> p, std::string color);
  // Points that are lower bounds (the true value is at or above): hollow upward triangles.
  void lower_bounds(std::string label, std::vector<xy> p, std::string color);
  // Points with an interval each (low[i] to high[i] at p[i].x): a dot and a capped bar.
  void intervals(std::string label, std::vector<xy> p, std::vector<xy> low, std::vector<xy> high,
                 std::string color);
  void line(std::string label, std::vector<xy> p, std::string color, bool dashed = false);
  // The area between low and high (equal x, in order).
  void band(std::string label, std::vector<xy> low, std::vector<xy> high, std::string color);
  void hline(std::string label, double y, std::string color);
  void vline(std::string label, double x, std::string color);
  // Logarithmic axes (ticks at 1, 2 and 5 × 10^k); values ≤ 0 are then not drawn.
  void log_axes(bool x, bool y);
  // A linear y axis over [lo, hi] (rounded out to its ticks) instead of one from zero: for
  // figures near 1, such as ratios.
  void y_span(double lo, double hi);

  std::string render(int width = 640, int height = 360) const;

private:
  enum class kind { points, lower_bounds, intervals, line, dashed, band, hline, vline };
  struct series {
    kind k;
    std::string label, color;
    std::vector<xy> p, high, low = {};
  };
  struct frame; // the plot's axes and place in the image
  frame plot_frame(int width, int& height, std::vector<std::pair<double, int>>& legend_at) const;
  std::string axes_svg(const frame& f, int height) const;
  static std::string series_svg(const series& s, const frame& f);

  std::string m_title, m_x_label, m_y_label;
  std::vector<series> m_series;
  bool m_log_x = false, m_log_y = false;
  std::optional<std::pair<double, double>> m_y_span;
};

// One bar: its label (the backend's), the value and the spread of the runs behind it (NaN:
// none drawn).
struct bar {
  std::string label;
  double value = 0;
  double low = std::nan(""), high = std::nan("");
};
struct reference_line {
  std::string label;
  double y = 0;
};

// Vertical bars in distinct colours on an axis from zero, each with its label under it, its
// value above it and its spread as an error bar; a dashed reference line (a threshold) if given.
std::string svg_bar_chart(const std::string& title, const std::string& y_label,
                          const std::vector<bar>& bars,
                          std::optional<reference_line> threshold = std::nullopt, int width = 640,
                          int height = 300);

// A step of 1, 2 or 5 × 10^k that cuts [0, span] into about `ticks` parts.
double nice_step(double span, int ticks = 5);

} // namespace dlsize::render
