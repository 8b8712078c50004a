#pragma once
// The regularized incomplete beta function I_x(a, b), behind the t and F distributions of the
// sizing fits' intervals and tests.
namespace dlsize::analysis {

// I_x(a, b) for a, b > 0: 0 at x <= 0, 1 at x >= 1 (continued fraction, modified Lentz; about
// 1e-15 relative accuracy).
double regularized_beta(double a, double b, double x);

} // namespace dlsize::analysis
