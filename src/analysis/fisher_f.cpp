#include "analysis/fisher_f.hpp"

#include <cmath>

#include "analysis/incomplete_beta.hpp"

namespace dlsize::analysis {

double fisher_f_cdf(double f, double d1, double d2) {
  if (!(f > 0))
    return 0;
  if (std::isinf(f))
    return 1;
  return regularized_beta(0.5 * d1, 0.5 * d2, d1 * f / (d1 * f + d2));
}

double fisher_f_upper_tail(double f, double d1, double d2) {
  if (!(f > 0))
    return 1;
  if (std::isinf(f))
    return 0;
  return regularized_beta(0.5 * d2, 0.5 * d1, d2 / (d2 + d1 * f));
}

} // namespace dlsize::analysis
