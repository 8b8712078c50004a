#pragma once
// Ordinary least squares with intercept, y = intercept + slope · x, with the textbook 95 %
// intervals: for the mean response at x (confidence) and for one new observation at x
// (prediction), both t(0.975, n − 2) · s · sqrt(...), s the residual standard error.
#include <cstddef>
#include <vector>

namespace dlsize::analysis {

struct linear_fit {
  std::size_t n = 0;
  double slope = 0, intercept = 0;
  double r2 = 0;             // 1 − SSE / SST (1 when every y is equal and fitted exactly)
  double residual_stdev = 0; // s = sqrt(SSE / (n − 2)); 0 with n = 2
  double slope_stderr = 0, intercept_stderr = 0;
  double t975 = 0; // t quantile used by the intervals (df = n − 2; NaN with n = 2)
  double mean_x = 0, sxx = 0, sse = 0;
  std::vector<double> residuals; // y − fitted, in input order

  double predict(double x) const { return intercept + slope * x; }
  // Half-widths of the 95 % intervals at x; NaN when n = 2 (no degrees of freedom left).
  double confidence_half_width(double x) const;
  double prediction_half_width(double x) const;
};

// Throws usage_error with fewer than 2 points, sizes that differ, or all x equal.
linear_fit fit_line(const std::vector<double>& x, const std::vector<double>& y);

} // namespace dlsize::analysis
