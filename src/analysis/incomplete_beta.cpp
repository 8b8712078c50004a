#include "analysis/incomplete_beta.hpp"

#include <cmath>

namespace dlsize::analysis {
namespace {

// Continued fraction of I_x(a, b), valid for x < (a + 1) / (a + b + 2); the caller uses the
// symmetry I_x(a, b) = 1 − I_{1−x}(b, a) otherwise.
double beta_continued_fraction(double a, double b, double x) {
  constexpr double tiny = 1e-300;
  constexpr double eps = 1e-15;
  double c = 1.0;
  double d = 1.0 - (a + b) * x / (a + 1.0);
  if (std::fabs(d) < tiny)
    d = tiny;
  d = 1.0 / d;
  double h = d;
  // One step of Lentz's method: takes the next term's numerator into c and d and returns the
  // factor it brings to h.
  const auto lentz_step = [&](double num) {
    d = 1.0 + num * d;
    if (std::fabs(d) < tiny)
      d = tiny;
    c = 1.0 + num / c;
    if (std::fabs(c) < tiny)
      c = tiny;
    d = 1.0 / d;
    return d * c;
  };
  for (int m = 1; m <= 500; ++m) {
    const double m2 = 2.0 * m;
    h *= lentz_step(m * (b - m) * x / ((a + m2 - 1.0) * (a + m2)));
    const double delta = lentz_step(-(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1.0)));
    h *= delta;
    if (std::fabs(delta - 1.0) < eps)
      break;
  }
  return h;
}

} // namespace

double regularized_beta(double a, double b, double x) {
  if (x <= 0)
    return 0;
  if (x >= 1)
    return 1;
  const double front = std::exp(std::lgamma(a + b) - std::lgamma(a) - std::lgamma(b) +
                                a * std::log(x) + b * std::log1p(-x));
  if (x < (a + 1.0) / (a + b + 2.0))
    return front * beta_continued_fraction(a, b, x) / a;
  return 1.0 - front * beta_continued_fraction(b, a, 1.0 - x) / b;
}

} // namespace dlsize::analysis
