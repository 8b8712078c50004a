#pragma once
// Summaries of repeated runs: the median (what comparisons and sizing tables quote) and the
// range that gives the run-to-run spread.
#include <algorithm>
#include <cmath>
#include <vector>

namespace dlsize::analysis {

// The median of v (the mean of the two middle values for an even count); NaN when empty.
inline double median(std::vector<double> v) {
  if (v.empty())
    return std::nan("");
  std::sort(v.begin(), v.end());
  const std::size_t n = v.size();
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

struct value_stats {
  double median = std::nan(""), min = std::nan(""), max = std::nan("");
  std::size_t count = 0;
};

// Median, minimum and maximum of the finite values of v.
inline value_stats stats_of(const std::vector<double>& v) {
  std::vector<double> f;
  for (double x : v)
    if (std::isfinite(x))
      f.push_back(x);
  value_stats s;
  s.count = f.size();
  if (f.empty())
    return s;
  s.median = median(f);
  const auto [lo, hi] = std::minmax_element(f.begin(), f.end());
  s.min = *lo;
  s.max = *hi;
  return s;
}

} // namespace dlsize::analysis
