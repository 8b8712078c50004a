#pragma once
// Fisher's F distribution, for the extra-sum-of-squares test that decides whether the data
// support a knee (sizing/knee).
namespace dlsize::analysis {

// P(F <= f) for F ~ F(d1, d2), d1, d2 > 0; 0 for f <= 0, 1 for f = +inf.
double fisher_f_cdf(double f, double d1, double d2);
// P(F > f), computed directly so that tiny p-values keep their digits (1 − cdf would round
// them to 0).
double fisher_f_upper_tail(double f, double d1, double d2);

} // namespace dlsize::analysis
