// Unit tests for src/analysis/knee and fisher_f: the F distribution against printed tables, the
// hinge fit on exact data, a known knee found, no knee on noisy straight lines.
#include <cmath>
#include <vector>

#include <catch2/catch.hpp>

#include "test_support.hpp"

#include "analysis/fisher_f.hpp"
#include "analysis/knee.hpp"
#include "analysis/student_t.hpp"

using namespace dlsize;
using Catch::Matchers::Contains;

namespace {

// A fixed zero-mean noise sequence (no random draws: the tests must not depend on a seed).
double noise(std::size_t i) {
  static const double n[] = {0.8, -1.1, 0.3,  1.4, -0.6, -0.2, 0.9, -1.3,
                             0.1, 0.5,  -0.9, 0.2, -0.4, 1.0,  -0.7};
  return n[i % 15];
}

} // namespace

TEST_CASE("fisher_f_cdf gives the printed 95th percentiles", "[sizing]") {
  // F(0.95; d1, d2) from standard tables.
  CHECK(analysis::fisher_f_cdf(4.459, 2, 8) == Approx(0.95).margin(1e-4));
  CHECK(analysis::fisher_f_cdf(4.103, 2, 10) == Approx(0.95).margin(1e-4));
  CHECK(analysis::fisher_f_cdf(19.0, 2, 2) == Approx(0.95).margin(1e-4));
  // F(1, d) is t(d)²: P(F <= t²) = 1 − 2 P(T > t).
  const double t = analysis::student_t_quantile(0.975, 10);
  CHECK(analysis::fisher_f_cdf(t * t, 1, 10) == Approx(0.95).margin(1e-6));
  CHECK(analysis::fisher_f_cdf(0, 2, 8) == 0.0);
  // The upper tail keeps tiny p-values: for d1 = 2, P(F > f) = (1 + 2f/d2)^(−d2/2), so
  // P(F(2, 20) > 1e5) = 10001^−10, about 1e-40, where 1 − cdf gives 0.
  CHECK(analysis::fisher_f_upper_tail(4.459, 2, 8) == Approx(0.05).margin(1e-4));
  CHECK(analysis::fisher_f_upper_tail(1e5, 2, 20) == Approx(std::pow(10001.0, -10)).epsilon(1e-9));
}

TEST_CASE("fit_hinge recovers an exact two-segment line and its breakpoint", "[sizing]") {
  // 40 per accelerator up to 5, then 5 per accelerator: breakpoint 5 between measured counts
  // 4 and 6 would be found too, here it is a measured count.
  std::vector<double> x, y;
  for (double n : {1, 2, 3, 4, 5, 6, 7, 8}) {
    x.push_back(n);
    y.push_back(n <= 5 ? 10 + 40 * n : 210 + 5 * (n - 5));
  }
  const auto h = analysis::fit_hinge(x, y);
  CHECK(h.breakpoint == Approx(5).margin(1e-3));
  CHECK(h.intercept == Approx(10).margin(1e-6));
  CHECK(h.slope_before == Approx(40).margin(1e-6));
  CHECK(h.slope_after == Approx(5).margin(1e-6));
  CHECK(h.sse == Approx(0).margin(1e-9));
  CHECK(h.predict(7) == Approx(220));
}

TEST_CASE("fit_hinge finds a breakpoint between measured counts", "[sizing]") {
  // A read cap of 196 against a demand of 40 per accelerator meets at 4.9.
  std::vector<double> x, y;
  for (double n : {1, 2, 4, 6, 8, 10})
    for (int r = 0; r < 2; ++r) {
      x.push_back(n);
      y.push_back(std::min(40 * n, 196.0));
    }
  const auto h = analysis::fit_hinge(x, y);
  CHECK(h.breakpoint == Approx(4.9).margin(0.01));
  CHECK(h.slope_after == Approx(0).margin(1e-6));
}

TEST_CASE("test_knee finds the knee where a read cap meets the demand", "[sizing]") {
  // Bandwidth min(n × 46 MB/s, 150 MB/s) with ±1 MB/s of noise, counts 1 to 8, 3 repeats:
  // the cap meets the demand at 3.26 accelerators.
  std::vector<double> x, y;
  std::size_t i = 0;
  for (int r = 0; r < 3; ++r)
    for (double n = 1; n <= 8; ++n) {
      x.push_back(n);
      y.push_back(std::min(46e6 * n, 150e6) + 1e6 * noise(i++));
    }
  const auto k = analysis::test_knee(x, y);
  REQUIRE(k.tested);
  CHECK(k.chosen);
  CHECK(k.hinge.breakpoint == Approx(150.0 / 46).margin(0.2));
  CHECK(k.p_value < 1e-6);
  CHECK(k.df1 == 2);
  CHECK(k.df2 == 20);
  CHECK_THAT(k.reason, Contains("knee at"));
}

TEST_CASE("test_knee finds no knee on a noisy straight line", "[sizing]") {
  // 50 MB/s per accelerator with noise of ±5 % of the mean: the hinge only fits noise.
  for (double scale : {1e6, 3e6, 6e6}) {
    std::vector<double> x, y;
    std::size_t i = 0;
    for (int r = 0; r < 3; ++r)
      for (double n : {1, 2, 4, 8, 16}) {
        x.push_back(n);
        y.push_back(50e6 * n + scale * noise(i++));
      }
    const auto k = analysis::test_knee(x, y);
    INFO("noise scale " << scale << ": " << k.reason);
    REQUIRE(k.tested);
    CHECK_FALSE(k.chosen);
    CHECK(k.p_value > 0.05);
  }
}

TEST_CASE("test_knee does not call faster growth a knee", "[sizing]") {
  std::vector<double> x = {1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6};
  std::vector<double> y;
  for (double n : x)
    y.push_back(n <= 3 ? 10 * n : 30 + 50 * (n - 3));
  const auto k = analysis::test_knee(x, y);
  CHECK(k.p_value < 0.05);
  CHECK_FALSE(k.chosen);
  CHECK_THAT(k.reason, Contains("grows faster"));
}

TEST_CASE("test_knee says why it was not tested with too few runs", "[sizing]") {
  const auto k = analysis::test_knee({1, 2, 4, 8}, {1, 2, 4, 8});
  CHECK_FALSE(k.tested);
  CHECK_FALSE(k.chosen);
  CHECK_THAT(k.reason, Contains("5 runs at 3 counts"));
  CHECK_THAT(test::usage_error_message([] {
               (void)analysis::fit_hinge({1, 2, 1, 2}, {1, 2, 1, 2});
             }),
             Contains("at least 3"));
}
