#pragma once
// Knee detection: where storage bandwidth stops growing with the accelerators. A straight line
// is compared with a continuous hinge (two segments that meet at a breakpoint searched over the
// measured range); the hinge is chosen only when an extra-sum-of-squares F test says the data
// support it at level alpha, and only when the second segment grows more slowly than the first.
#include <string>
#include <vector>

namespace dlsize::analysis {

inline constexpr double kKneeAlpha = 0.05;

// y = intercept + slope_before · x up to the breakpoint, then slope_after beyond it.
struct hinge_fit {
  double breakpoint = 0;
  double intercept = 0;
  double slope_before = 0, slope_after = 0;
  double sse = 0;

  double predict(double x) const;
};

// Least squares of y = a + b·x + c·max(0, x − k), k searched continuously from the second
// smallest to the second largest distinct x (each segment keeps two distinct x). Throws
// usage_error with fewer than three distinct x or sizes that differ.
hinge_fit fit_hinge(const std::vector<double>& x, const std::vector<double>& y);

struct knee_test {
  bool tested = false;
  std::string reason; // why it was not tested, or the decision in words
  double alpha = kKneeAlpha;
  double sse_line = 0;
  hinge_fit hinge;
  double f = 0, df1 = 2, df2 = 0;
  double p_value = 1;
  bool chosen = false;
};

// F = ((SSE_line − SSE_hinge) / 2) / (SSE_hinge / (n − 4)): the breakpoint counts as a
// parameter, so the hinge has 4 against the line's 2. Needs 5 points and 3 distinct x;
// otherwise tested is false and reason says why. unit: the count's noun ("accelerator", "rank")
// in the reasons.
knee_test test_knee(const std::vector<double>& x, const std::vector<double>& y,
                    double alpha = kKneeAlpha, const std::string& unit = "accelerator");

} // namespace dlsize::analysis
