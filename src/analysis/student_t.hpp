#pragma once
// Student's t distribution, for the confidence and prediction intervals of the sizing fits.
namespace dlsize::analysis {

// P(T <= t) for T ~ Student's t with df > 0 degrees of freedom.
double student_t_cdf(double t, double df);
// The quantile: t with P(T <= t) = p, for 0 < p < 1 (bisection on the CDF; agrees with printed
// tables to their 4 decimals, within 1e-6 near the median).
double student_t_quantile(double p, double df);

} // namespace dlsize::analysis
