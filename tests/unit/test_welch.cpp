// Unit tests for src/analysis/welch: which backend wins on samples/s, by how much, with what
// confidence.
#include <catch2/catch.hpp>

#include "analysis/welch.hpp"

using namespace dlsize::analysis;

TEST_CASE("welch_ratio gives the ratio of geometric means and an interval that excludes 1 for "
          "a clear winner",
          "[compare]") {
  const auto r = welch_ratio({100, 101, 99}, {200, 203, 198});
  REQUIRE(r);
  CHECK(r->ratio == Approx(2.0).epsilon(0.01));
  CHECK(r->low < r->ratio);
  CHECK(r->high > r->ratio);
  CHECK(r->excludes_one());
}

TEST_CASE("welch_ratio of overlapping backends includes 1", "[compare]") {
  const auto r = welch_ratio({100, 110, 90}, {104, 95, 108});
  REQUIRE(r);
  CHECK_FALSE(r->excludes_one());
}

TEST_CASE("below three runs on either side there is not enough for an interval", "[compare]") {
  CHECK_FALSE(welch_ratio({100, 101}, {200, 203, 198}));
  CHECK_THAT(ratio_text(std::nullopt, 2, 3), Catch::Matchers::Contains("not enough runs"));
}
