#include "analysis/student_t.hpp"

#include <cmath>
#include <limits>

#include "analysis/incomplete_beta.hpp"

namespace dlsize::analysis {

double student_t_cdf(double t, double df) {
  const double x = df / (df + t * t);
  const double tail = 0.5 * regularized_beta(0.5 * df, 0.5, x); // P(T > |t|)
  return t >= 0 ? 1.0 - tail : tail;
}

double student_t_quantile(double p, double df) {
  if (!(p > 0 && p < 1) || !(df > 0))
    return std::numeric_limits<double>::quiet_NaN();
  double lo = -1e6, hi = 1e6;
  for (int i = 0; i < 200 && hi - lo > 1e-10; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (student_t_cdf(mid, df) < p)
      lo = mid;
    else
      hi = mid;
  }
  return 0.5 * (lo + hi);
}

} // namespace dlsize::analysis
