// Unit tests for src/accel/compute_model.hpp: per-step compute times of an emulated accelerator.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include <catch2/catch.hpp>

#include "test_support.hpp"

#include "accel/compute_model.hpp"

namespace {

using Catch::Matchers::Contains;
using dlsize::accel::compute_model;
using dlsize::test::usage_error_message;

std::vector<std::uint64_t> draws(compute_model& m, std::size_t n) {
  std::vector<std::uint64_t> out;
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i)
    out.push_back(m.draw_ns());
  return out;
}

std::uint64_t to_ns(double s) {
  return static_cast<std::uint64_t>(std::llround(s * 1e9));
}

} // namespace

TEST_CASE("compute_model without a spread draws exactly the mean, rounded to ns",
          "[compute_model]") {
  for (const double mean : {0.0, 0.224, 0.435, 0.00551, 1.5, 1e-9, 2.4e-9, 2.6e-9}) {
    INFO("mean " << mean);
    compute_model m(mean, 0.0, 7);
    CHECK(m.mean_s() == mean);
    CHECK(m.stdev_s() == 0.0);
    for (const std::uint64_t d : draws(m, 100))
      CHECK(d == to_ns(mean));
  }
}

TEST_CASE("compute_model with a spread draws with the given mean and stdev", "[compute_model]") {
  const double mean = 0.1, stdev = 0.01;
  compute_model m(mean, stdev, 12345);
  const auto d = draws(m, 20000);
  double sum = 0, sq = 0;
  for (const std::uint64_t x : d) {
    const double s = static_cast<double>(x) * 1e-9;
    sum += s;
    sq += s * s;
  }
  const double n = static_cast<double>(d.size());
  const double m1 = sum / n;
  const double sd = std::sqrt(sq / n - m1 * m1);
  CHECK(m1 == Approx(mean).epsilon(0.01));
  // Clipping at ±3σ narrows the spread by well under 1 %.
  CHECK(sd == Approx(stdev).epsilon(0.03));
  // Not a constant: many distinct values.
  std::vector<std::uint64_t> sorted = d;
  std::sort(sorted.begin(), sorted.end());
  CHECK(std::unique(sorted.begin(), sorted.end()) - sorted.begin() > 10000);
}

TEST_CASE("compute_model draws stay within mean ± 3 sigma", "[compute_model]") {
  const double mean = 0.05, stdev = 0.01;
  compute_model m(mean, stdev, 3);
  const std::uint64_t lo = to_ns(mean - 3 * stdev), hi = to_ns(mean + 3 * stdev);
  std::uint64_t min = UINT64_MAX, max = 0, below_1sigma = 0, at_lo = 0, at_hi = 0;
  for (const std::uint64_t d : draws(m, 20000)) {
    min = std::min(min, d);
    max = std::max(max, d);
    below_1sigma += d < to_ns(mean - stdev) ? 1 : 0;
    at_lo += d <= lo + 1 ? 1 : 0;
    at_hi += d + 1 >= hi ? 1 : 0;
  }
  CHECK(min + 1 >= lo); // 1 ns of rounding either way
  CHECK(max <= hi + 1);
  // About 0.13 % of a normal lies beyond each 3σ bound (~27 draws): clipped onto the bound.
  CHECK(at_lo > 5);
  CHECK(at_hi > 5);
  // About 16 % of a normal lies below −1σ: the tails are drawn, not just the middle.
  CHECK(below_1sigma > 2800);
  CHECK(below_1sigma < 3600);
}

TEST_CASE("compute_model never draws a negative time when the spread reaches below zero",
          "[compute_model]") {
  // mean − 3σ = −2 ms: about 16 % of the draws would be negative before clipping at zero.
  const double mean = 0.001, stdev = 0.001;
  compute_model m(mean, stdev, 99);
  std::uint64_t zeros = 0, max = 0;
  for (const std::uint64_t d : draws(m, 20000)) {
    max = std::max(max, d);
    zeros += d == 0 ? 1 : 0;
  }
  // A negative time cast to an unsigned count would wrap to a huge value.
  CHECK(max <= to_ns(mean + 3 * stdev) + 1);
  CHECK(zeros > 2800);
  CHECK(zeros < 3600);
}

TEST_CASE("compute_model gives the same sequence for the same seed", "[compute_model]") {
  compute_model a(0.2, 0.05, 42), b(0.2, 0.05, 42), c(0.2, 0.05, 43);
  const auto da = draws(a, 1000), db = draws(b, 1000), dc = draws(c, 1000);
  CHECK(da == db);
  CHECK(da != dc);
}

TEST_CASE("compute_model rejects a negative or non-finite mean and stdev", "[compute_model]") {
  CHECK_THAT(usage_error_message([] { (void)compute_model(-0.1, 0.0, 1); }),
             Contains("--compute-time:"));
  CHECK_THAT(usage_error_message([] { (void)compute_model(-1e-9, 0.0, 1); }),
             Contains("--compute-time:"));
  CHECK_THAT(usage_error_message([] { (void)compute_model(std::nan(""), 0.0, 1); }),
             Contains("--compute-time:"));
  CHECK_THAT(usage_error_message([] { (void)compute_model(INFINITY, 0.0, 1); }),
             Contains("--compute-time:"));
  CHECK_THAT(usage_error_message([] { (void)compute_model(0.1, -0.01, 1); }),
             Contains("--compute-time-stdev:"));
}
