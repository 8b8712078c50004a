// Unit tests for src/analysis/cache_curve and the measured cache model of projections: the
// monotone piecewise-linear fit of a cache sweep, its residuals against both models, and
// projections of grown data that follow the measured curve (readahead amplification included).
#include <cmath>
#include <vector>

#include <catch2/catch.hpp>

#include "analysis/cache_curve.hpp"
#include "analysis/cache_model.hpp"
#include "analysis/projection.hpp"
#include "core/error.hpp"

using namespace dlsize;
using Catch::Matchers::Contains;

namespace {

analysis::cache_point point(double f, double storage_per_read) {
  return {"f" + std::to_string(f), f, storage_per_read};
}

// The shape results/cache-sweep measured: no hits below f ≈ 0.8, readahead reading more than
// the loaders at small f, nearly all hits beyond 1.
std::vector<analysis::cache_point> kernel_like() {
  return {point(0.1, 1.3),   point(0.1, 1.2),   point(0.25, 2.2), point(0.5, 1.4), point(0.75, 1.0),
          point(0.87, 0.56), point(0.87, 0.54), point(1.4, 0.01), point(2.6, 0.02)};
}

} // namespace

TEST_CASE("a cache curve has one knot per distinct f, the median of its runs", "[cache]") {
  const auto c = analysis::fit_cache_curve(
      {point(0.5, 0.6), point(0.2, 0.9), point(0.5, 0.4), point(0.5, 0.5), point(0.9, 0.1)});
  REQUIRE(c.knots.size() == 3);
  CHECK(c.knots[0].f == Approx(0.2));
  CHECK(c.knots[1].runs == 3);
  CHECK(c.knots[1].storage_per_read == Approx(0.5));
  CHECK(c.usable());
  // Linear between knots, the nearest knot's value outside them.
  CHECK(c.storage_per_read_at(0.35) == Approx(0.7));
  CHECK(c.storage_per_read_at(0.05) == Approx(0.9));
  CHECK(c.storage_per_read_at(3.0) == Approx(0.1));
  CHECK(c.hit_ratio_at(0.7) == Approx(0.7));
}

TEST_CASE("a cache curve is made non-increasing in f, pooling the knots that break it", "[cache]") {
  const auto c = analysis::fit_cache_curve(kernel_like());
  REQUIRE(c.knots.size() == 7);
  for (std::size_t i = 1; i < c.knots.size(); ++i)
    CHECK(c.knots[i].storage_per_read <= c.knots[i - 1].storage_per_read);
  // 0.1 (two runs, median 1.25) and 0.25 (one run, 2.2) pool to their weighted mean.
  CHECK(c.knots[0].measured_storage_per_read == Approx(1.25));
  CHECK(c.knots[0].storage_per_read == Approx((2 * 1.25 + 2.2) / 3));
  CHECK(c.knots[1].storage_per_read == Approx((2 * 1.25 + 2.2) / 3));
  CHECK(c.knots[2].storage_per_read == Approx(1.4)); // kept where it is already monotone
  // 1.4 (0.01) and 2.6 (0.02) pool too.
  CHECK(c.knots[6].storage_per_read == Approx(0.015));
  CHECK(c.readahead_amplification() > 1.5);
}

TEST_CASE("a cache curve's residuals say how far below the models the kernel hits", "[cache]") {
  const auto c = analysis::fit_cache_curve(kernel_like());
  const auto fit = c.fit_residuals(), lru = c.lru_residuals(), ne = c.never_evict_residuals();
  CHECK(fit.rms < lru.rms);
  CHECK(lru.rms < ne.rms);
  // Measured − model: negative, the kernel hits less than either model.
  CHECK(lru.mean < -0.05);
  CHECK(ne.mean < lru.mean);
  // The fit's residuals are the runs' spread around it: 0.87's two runs at ±0.01.
  CHECK(fit.max_abs == Approx(0.01).margin(1e-9));
  // Where no run hits, the storage ÷ read residuals still see the pooled amplification: 2.2
  // at 0.25 against the fit's 1.57.
  CHECK(c.fit_storage_residuals().max_abs == Approx(2.2 - (2 * 1.25 + 2.2) / 3));
}

TEST_CASE("a cache curve with fewer than three distinct f is not usable", "[cache]") {
  const auto c = analysis::fit_cache_curve({point(0.5, 0.6), point(0.5, 0.7), point(2, 0)});
  CHECK(c.knots.size() == 2);
  CHECK_FALSE(c.usable());
}

TEST_CASE("a cache point without a positive f is refused, naming its file", "[cache]") {
  CHECK_THROWS_AS(analysis::fit_cache_curve({point(0, 0.5)}), usage_error);
  CHECK_THROWS_WITH(analysis::fit_cache_curve({{"r.json", 0.5, std::nan("")}}),
                    Contains("r.json") && Contains("storage_per_read_byte"));
}

TEST_CASE("projections of grown data follow the measured curve, readahead amplification "
          "included",
          "[cache][sizing]") {
  const auto c = analysis::fit_cache_curve(kernel_like());
  analysis::projection_options o;
  o.targets = {8};
  o.growth = {1, 2, 8};
  o.demand_per_accelerator = 100e6;
  o.cache_bytes = 140e6;
  o.dataset_bytes = 100e6; // f 1.4 at the measured size, 0.7 and 0.175 grown
  o.cache_model = analysis::cache_model_kind::measured;
  o.curve = &c;
  auto cache = analysis::project_cache(o, 2);
  CHECK(cache.storage_per_read == Approx(c.storage_per_read_at(0.7)));
  CHECK(cache.hit_ratio == Approx(std::max(0.0, 1 - c.storage_per_read_at(0.7))));
  CHECK_THAT(cache.source, Contains("measured cache curve at f 0.7"));
  // Measured hits fewer than LRU at f 0.7: the storage must deliver more.
  CHECK(cache.storage_per_read > 1 - analysis::lru_hit_ratio(0.7, 1));
  cache = analysis::project_cache(o, 8);
  CHECK(cache.storage_per_read > 1); // readahead reads more than the loaders use
  CHECK(cache.hit_ratio == 0);
  cache = analysis::project_cache(o, 20); // f 0.07: below the sweep
  CHECK_THAT(cache.source, Contains("outside the measured 0.1 to 2.6"));
  // A measured ratio at growth 1 wins there, and caps grown data.
  o.measured_hit_ratio = 0.5;
  cache = analysis::project_cache(o, 1);
  CHECK(cache.source == "measured");
  CHECK(cache.storage_per_read == Approx(0.5));
  o.growth = {1.01};
  cache = analysis::project_cache(o, 1.01); // f 1.386: the curve's 0.0x, capped at 0.5
  CHECK(cache.storage_per_read == Approx(0.5));
  CHECK_THAT(cache.source, Contains("capped at the measured"));
  // Without a cache (direct I/O) the curve does not apply.
  o.cache_bytes = 0;
  o.measured_hit_ratio = std::nan("");
  cache = analysis::project_cache(o, 2);
  CHECK(cache.storage_per_read == Approx(1));
}
