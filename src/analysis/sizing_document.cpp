#include "analysis/sizing_document.hpp"

#include <fmt/format.h>

namespace dlsize::analysis {
namespace {

std::optional<std::pair<double, double>> interval(double centre, double half) {
  if (!std::isfinite(half))
    return std::nullopt;
  return std::pair{centre - half, centre + half};
}

} // namespace

std::optional<std::pair<double, double>> interval_of(double low, double high) {
  if (!std::isfinite(low))
    return std::nullopt;
  return std::pair{low, high};
}

std::string knee_test_description(const std::string& unit) {
  return "extra-sum-of-squares F test: straight line (2 parameters) against a continuous hinge "
         "(intercept, two slopes, breakpoint: 4 parameters), breakpoint searched between the "
         "second smallest and second largest " +
         unit + " counts";
}

std::optional<std::pair<double, double>> sizing_fit::slope_ci95() const {
  return interval(line.slope, line.t975 * line.slope_stderr);
}

std::optional<std::pair<double, double>> sizing_fit::intercept_ci95() const {
  return interval(line.intercept, line.t975 * line.intercept_stderr);
}

sizing_fit fit_with_curve(const linear_fit& line, double curve_to) {
  sizing_fit f{line, {}};
  if (curve_to > 0) {
    constexpr int steps = 32;
    for (int i = 0; i <= steps; ++i) {
      const double x = curve_to * i / steps;
      const double y = line.predict(x);
      const double c = line.confidence_half_width(x), p = line.prediction_half_width(x);
      f.curve.push_back({x, y, y - c, y + c, y - p, y + p});
    }
  }
  return f;
}

std::string cache_curve_method() {
  return fmt::format("storage bytes per byte read in the warm epochs against f = client RAM / "
                     "dataset: the median of each f, made non-increasing "
                     "(pool-adjacent-violators), linear between them; hit ratio = clamp(1 − "
                     "that, 0, 1); {} distinct f needed",
                     kMinCacheCurveFractions);
}

} // namespace dlsize::analysis
