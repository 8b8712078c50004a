// Unit tests for src/analysis/cache_model.hpp: the hit ratios of the sizing method's cache models.
#include <cmath>

#include <catch2/catch.hpp>

#include "test_support.hpp"

#include "analysis/cache_model.hpp"

using namespace dlsize;

TEST_CASE("cache models give the hit ratios of the sizing method", "[sizing]") {
  CHECK(analysis::never_evict_hit_ratio(50, 100) == Approx(0.5));
  CHECK(analysis::never_evict_hit_ratio(300, 100) == Approx(1.0));
  // f + (1 − f) ln(1 − f): 0.153 at f = 0.5 and 0.0342 at f = 0.25 (REFERENCE: 0.15, 0.035).
  CHECK(analysis::lru_hit_ratio(50, 100) == Approx(0.5 + 0.5 * std::log(0.5)));
  CHECK(analysis::lru_hit_ratio(50, 100) == Approx(0.153).margin(0.001));
  CHECK(analysis::lru_hit_ratio(25, 100) == Approx(0.0342).margin(0.0005));
  CHECK(analysis::lru_hit_ratio(100, 100) == Approx(1.0));
  CHECK(analysis::lru_hit_ratio(0, 100) == Approx(0.0));
}
