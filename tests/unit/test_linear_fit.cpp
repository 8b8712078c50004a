// Unit tests for src/analysis/linear_fit.hpp: the least-squares fit and its intervals, on Student's
// t (src/analysis/student_t.hpp) as printed tables give it.
#include <cmath>
#include <vector>

#include <catch2/catch.hpp>

#include "test_support.hpp"

#include "analysis/linear_fit.hpp"
#include "analysis/student_t.hpp"

using namespace dlsize;
using Catch::Matchers::Contains;

TEST_CASE("student_t_quantile matches the printed t table", "[sizing]") {
  // t(0.975, df) from standard tables.
  const std::vector<std::pair<double, double>> table = {{1, 12.7062}, {2, 4.3027},  {3, 3.1824},
                                                        {5, 2.5706},  {10, 2.2281}, {30, 2.0423},
                                                        {120, 1.9799}};
  for (const auto& [df, t] : table) {
    INFO("df " << df);
    CHECK(analysis::student_t_quantile(0.975, df) == Approx(t).epsilon(1e-4));
  }
  CHECK(analysis::student_t_quantile(0.5, 7) == Approx(0.0).margin(1e-6));
  CHECK(analysis::student_t_cdf(0, 4) == Approx(0.5));
  CHECK(analysis::student_t_cdf(-2.7764, 4) == Approx(0.025).epsilon(1e-3));
}

TEST_CASE("fit_line recovers an exact line with zero residuals", "[sizing]") {
  const std::vector<double> x = {1, 2, 4, 8, 16};
  std::vector<double> y;
  for (double v : x)
    y.push_back(3.5 + 250.0 * v);
  const auto f = analysis::fit_line(x, y);
  CHECK(f.slope == Approx(250.0));
  CHECK(f.intercept == Approx(3.5));
  CHECK(f.r2 == Approx(1.0));
  CHECK(f.residual_stdev == Approx(0.0).margin(1e-9));
  for (double r : f.residuals)
    CHECK(r == Approx(0.0).margin(1e-9));
  CHECK(f.predict(32) == Approx(3.5 + 8000.0));
}

TEST_CASE("fit_line intervals equal the textbook formulas on a worked example", "[sizing]") {
  // x = 1..5, y = 2 4 5 4 5: slope 0.6, intercept 2.2, SSE 2.4, s = sqrt(0.8), Sxx = 10,
  // t(0.975, 3) = 3.18245.
  const auto f = analysis::fit_line({1, 2, 3, 4, 5}, {2, 4, 5, 4, 5});
  CHECK(f.slope == Approx(0.6));
  CHECK(f.intercept == Approx(2.2));
  CHECK(f.sse == Approx(2.4));
  CHECK(f.r2 == Approx(0.6));
  CHECK(f.residual_stdev == Approx(std::sqrt(0.8)));
  CHECK(f.slope_stderr == Approx(std::sqrt(0.8) / std::sqrt(10.0)));
  CHECK(f.intercept_stderr == Approx(std::sqrt(0.8) * std::sqrt(1.0 / 5 + 9.0 / 10)));
  const double t = 3.182446;
  CHECK(f.confidence_half_width(3) == Approx(t * std::sqrt(0.8) * std::sqrt(0.2)).epsilon(1e-5));
  CHECK(f.prediction_half_width(3) == Approx(t * std::sqrt(0.8) * std::sqrt(1.2)).epsilon(1e-5));
  CHECK(f.prediction_half_width(8) ==
        Approx(t * std::sqrt(0.8) * std::sqrt(1.2 + 25.0 / 10)).epsilon(1e-5));
  // Intervals widen away from the mean of x.
  CHECK(f.confidence_half_width(8) > f.confidence_half_width(3));
}

TEST_CASE("fit_line refuses too few points and a single x", "[sizing]") {
  CHECK_THAT(test::usage_error_message([] { (void)analysis::fit_line({1}, {2}); }),
             Contains("at least two"));
  CHECK_THAT(test::usage_error_message([] {
               (void)analysis::fit_line({2, 2, 2}, {1, 2, 3});
             }),
             Contains("distinct x"));
  const auto two = analysis::fit_line({1, 2}, {1, 3});
  CHECK(two.slope == Approx(2.0));
  CHECK(std::isnan(two.prediction_half_width(1.5)));
}
