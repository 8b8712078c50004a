#include "analysis/linear_fit.hpp"

#include <cmath>
#include <limits>

#include "analysis/student_t.hpp"
#include "core/error.hpp"

namespace dlsize::analysis {

double linear_fit::confidence_half_width(double x) const {
  if (n < 3)
    return std::numeric_limits<double>::quiet_NaN();
  const double d = x - mean_x;
  return t975 * residual_stdev * std::sqrt(1.0 / static_cast<double>(n) + d * d / sxx);
}

double linear_fit::prediction_half_width(double x) const {
  if (n < 3)
    return std::numeric_limits<double>::quiet_NaN();
  const double d = x - mean_x;
  return t975 * residual_stdev * std::sqrt(1.0 + 1.0 / static_cast<double>(n) + d * d / sxx);
}

linear_fit fit_line(const std::vector<double>& x, const std::vector<double>& y) {
  if (x.size() != y.size())
    throw usage_error("fit: x and y differ in length");
  if (x.size() < 2)
    throw usage_error("fit: at least two points are needed");
  linear_fit f;
  f.n = x.size();
  const double n = static_cast<double>(f.n);
  double sx = 0, sy = 0;
  for (std::size_t i = 0; i < f.n; ++i) {
    sx += x[i];
    sy += y[i];
  }
  f.mean_x = sx / n;
  const double my = sy / n;
  double sxy = 0, syy = 0;
  for (std::size_t i = 0; i < f.n; ++i) {
    f.sxx += (x[i] - f.mean_x) * (x[i] - f.mean_x);
    sxy += (x[i] - f.mean_x) * (y[i] - my);
    syy += (y[i] - my) * (y[i] - my);
  }
  if (f.sxx == 0)
    throw usage_error("fit: every point has the same x; at least two distinct x are needed");
  f.slope = sxy / f.sxx;
  f.intercept = my - f.slope * f.mean_x;
  for (std::size_t i = 0; i < f.n; ++i) {
    const double r = y[i] - f.predict(x[i]);
    f.residuals.push_back(r);
    f.sse += r * r;
  }
  f.r2 = syy > 0 ? 1.0 - f.sse / syy : 1.0;
  if (f.n > 2) {
    const double df = n - 2;
    f.residual_stdev = std::sqrt(f.sse / df);
    f.t975 = student_t_quantile(0.975, df);
    f.slope_stderr = f.residual_stdev / std::sqrt(f.sxx);
    f.intercept_stderr = f.residual_stdev * std::sqrt(1.0 / n + f.mean_x * f.mean_x / f.sxx);
  } else {
    f.t975 = std::numeric_limits<double>::quiet_NaN();
  }
  return f;
}

} // namespace dlsize::analysis
