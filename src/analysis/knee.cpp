#include "analysis/knee.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "analysis/fisher_f.hpp"
#include "analysis/linear_fit.hpp"
#include "core/error.hpp"
#include "core/units.hpp"

namespace dlsize::analysis {
namespace {

// Least squares of y on the columns 1, x, max(0, x − k) through the normal equations
// (Gaussian elimination with partial pivoting; the 3 × 3 system is tiny and well scaled
// because y is divided by its largest magnitude first).
hinge_fit fit_at(const std::vector<double>& x, const std::vector<double>& y, double k) {
  std::array<std::array<double, 4>, 3> m{};
  for (std::size_t i = 0; i < x.size(); ++i) {
    const std::array<double, 3> row = {1.0, x[i], std::max(0.0, x[i] - k)};
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c)
        m[r][c] += row[r] * row[c];
      m[r][3] += row[r] * y[i];
    }
  }
  for (int col = 0; col < 3; ++col) {
    int pivot = col;
    for (int r = col + 1; r < 3; ++r)
      if (std::fabs(m[r][col]) > std::fabs(m[pivot][col]))
        pivot = r;
    std::swap(m[col], m[pivot]);
    if (std::fabs(m[col][col]) < 1e-300)
      continue;
    for (int r = 0; r < 3; ++r) {
      if (r == col)
        continue;
      const double f = m[r][col] / m[col][col];
      for (int c = col; c < 4; ++c)
        m[r][c] -= f * m[col][c];
    }
  }
  std::array<double, 3> beta{};
  for (int r = 0; r < 3; ++r)
    beta[r] = std::fabs(m[r][r]) < 1e-300 ? 0.0 : m[r][3] / m[r][r];
  hinge_fit h;
  h.breakpoint = k;
  h.intercept = beta[0];
  h.slope_before = beta[1];
  h.slope_after = beta[1] + beta[2];
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double r = y[i] - h.predict(x[i]);
    h.sse += r * r;
  }
  return h;
}

std::vector<double> distinct_sorted(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  v.erase(std::unique(v.begin(), v.end()), v.end());
  return v;
}

} // namespace

double hinge_fit::predict(double x) const {
  return x <= breakpoint ? intercept + slope_before * x
                         : intercept + slope_before * breakpoint + slope_after * (x - breakpoint);
}

hinge_fit fit_hinge(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size())
    throw usage_error("hinge fit: x and y differ in length");
  const std::vector<double> u = distinct_sorted(x);
  if (u.size() < 3)
    throw usage_error(fmt::format("hinge fit: {} distinct x; at least 3 are needed", u.size()));
  double scale = 0;
  for (double v : y)
    scale = std::max(scale, std::fabs(v));
  if (scale == 0)
    scale = 1;
  std::vector<double> ys;
  for (double v : y)
    ys.push_back(v / scale);
  // A grid over every gap between neighbouring distinct x, then golden-section refinement
  // around the best grid point: SSE(k) is continuous and smooth within each gap.
  constexpr int steps = 64;
  hinge_fit best = fit_at(x, ys, u[1]);
  double step = 0;
  for (std::size_t g = 1; g + 2 < u.size(); ++g) {
    const double lo = u[g], hi = u[g + 1];
    for (int s = 0; s <= steps; ++s) {
      const double k = lo + (hi - lo) * s / steps;
      const hinge_fit h = fit_at(x, ys, k);
      if (h.sse < best.sse) {
        best = h;
        step = (hi - lo) / steps;
      }
    }
  }
  if (step > 0) {
    const double phi = (std::sqrt(5.0) - 1) / 2;
    double a = std::max(u[1], best.breakpoint - step),
           b = std::min(u[u.size() - 2], best.breakpoint + step);
    for (int i = 0; i < 60; ++i) {
      const double c = b - phi * (b - a), d = a + phi * (b - a);
      if (fit_at(x, ys, c).sse < fit_at(x, ys, d).sse)
        b = d;
      else
        a = c;
    }
    const hinge_fit h = fit_at(x, ys, 0.5 * (a + b));
    if (h.sse < best.sse)
      best = h;
  }
  best.intercept *= scale;
  best.slope_before *= scale;
  best.slope_after *= scale;
  best.sse *= scale * scale;
  return best;
}

knee_test test_knee(const std::vector<double>& x, const std::vector<double>& y, double alpha,
                    const std::string& unit) {
  knee_test t;
  t.alpha = alpha;
  const std::size_t distinct = distinct_sorted(x).size();
  if (x.size() < 5 || distinct < 3) {
    t.reason = fmt::format("not tested: {} runs at {} {} counts; the test needs 5 runs at "
                           "3 counts or more",
                           x.size(), distinct, unit);
    return t;
  }
  const linear_fit line = fit_line(x, y);
  t.tested = true;
  t.sse_line = line.sse;
  t.hinge = fit_hinge(x, y);
  t.df2 = static_cast<double>(x.size()) - 4;
  double sst = 0, mean = 0;
  for (double v : y)
    mean += v / static_cast<double>(y.size());
  for (double v : y)
    sst += (v - mean) * (v - mean);
  const double exact = 1e-12 * std::max(sst, 1e-300);
  const double gain = std::max(0.0, t.sse_line - t.hinge.sse);
  if (gain <= exact) {
    t.f = 0;
    t.p_value = 1;
  } else if (t.hinge.sse <= exact) {
    t.f = std::numeric_limits<double>::infinity();
    t.p_value = 0;
  } else {
    t.f = (gain / t.df1) / (t.hinge.sse / t.df2);
    t.p_value = fisher_f_upper_tail(t.f, t.df1, t.df2);
  }
  const bool significant = t.p_value < alpha;
  const bool slows = t.hinge.slope_after < t.hinge.slope_before;
  t.chosen = significant && slows;
  if (t.chosen)
    t.reason = fmt::format("knee at {:.3g} {}s: the hinge fits better than the line "
                           "(F = {}, p = {:.3g} < {})",
                           t.hinge.breakpoint, unit, units::format_plain(t.f), t.p_value, alpha);
  else if (significant)
    t.reason = fmt::format("no knee: the hinge fits better (p = {:.3g}) but grows faster after its "
                           "breakpoint, which is not saturation",
                           t.p_value);
  else
    t.reason = fmt::format("no knee: the hinge does not fit significantly better than the line "
                           "(F = {}, p = {:.3g} >= {})",
                           units::format_plain(t.f), t.p_value, alpha);
  return t;
}

} // namespace dlsize::analysis
