// Unit tests for src/core/histogram.hpp: log buckets, quantiles, merging and JSON.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/histogram.hpp"

namespace {

using dlsize::histogram;

const double kQuantiles[] = {0.0,  0.001, 0.01, 0.05, 0.1,   0.25, 0.5,
                             0.75, 0.9,   0.95, 0.99, 0.999, 1.0};

// Log-uniform latencies between lo and hi nanoseconds.
std::vector<std::uint64_t> log_uniform(std::size_t n, double lo, double hi, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::vector<std::uint64_t> v(n);
  const double a = std::log(lo);
  const double b = std::log(hi);
  for (auto& x : v) {
    const double u = static_cast<double>(gen() >> 11) * 0x1.0p-53;
    x = static_cast<std::uint64_t>(std::exp(a + (b - a) * u));
  }
  return v;
}

// The nearest-rank quantile of sorted values: the ceil(q * n)-th smallest (at least the first).
std::uint64_t nearest_rank(const std::vector<std::uint64_t>& sorted, double q) {
  auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(sorted.size())));
  if (rank == 0)
    rank = 1;
  return sorted[rank - 1];
}

histogram histogram_of(const std::vector<std::uint64_t>& values) {
  histogram h;
  for (auto v : values)
    h.record(v);
  return h;
}

// Values spread over every magnitude below 2^63: powers of two and their neighbours, small
// values, and random values with random bit widths.
std::vector<std::uint64_t> probe_values() {
  std::vector<std::uint64_t> v;
  for (std::uint64_t x = 0; x <= 4096; ++x)
    v.push_back(x);
  for (int s = 1; s < 63; ++s) {
    const std::uint64_t p = 1ull << s;
    v.push_back(p - 1);
    v.push_back(p);
    v.push_back(p + 1);
    v.push_back(p + p / 2);
  }
  std::mt19937_64 gen(11);
  for (int i = 0; i < 20000; ++i) {
    const int bits = 1 + static_cast<int>(gen() % 63); // 1..63 bits
    v.push_back(gen() >> (64 - bits));
  }
  return v;
}

} // namespace

TEST_CASE("bucket_of puts every value v in a bucket with bucket_low <= v < bucket_high",
          "[histogram]") {
  for (const std::uint64_t v : probe_values()) {
    const int b = histogram::bucket_of(v);
    INFO("value " << v << " bucket " << b);
    REQUIRE(b >= 0);
    REQUIRE(b < histogram::kBuckets);
    REQUIRE(histogram::bucket_low(b) <= v);
    REQUIRE(v < histogram::bucket_high(b));
  }
}

TEST_CASE("every bucket is at most 1/16 of its lower bound wide, and exact below 16 ns",
          "[histogram]") {
  for (int b = 0; b < histogram::kBuckets - 1; ++b) {
    const std::uint64_t low = histogram::bucket_low(b);
    const std::uint64_t high = histogram::bucket_high(b);
    INFO("bucket " << b << " [" << low << ", " << high << ")");
    REQUIRE(high > low);
    if (low < 16) {
      REQUIRE(high - low == 1);
    } else {
      REQUIRE(static_cast<double>(high - low) <= static_cast<double>(low) / 16.0);
    }
  }
  for (const std::uint64_t v : probe_values()) {
    const int b = histogram::bucket_of(v);
    if (v < 16) {
      REQUIRE(histogram::bucket_low(b) == v);
      REQUIRE(histogram::bucket_high(b) == v + 1);
    }
  }
}

TEST_CASE("buckets tile the value range contiguously and in order", "[histogram]") {
  CHECK(histogram::bucket_low(0) == 0);
  for (int b = 0; b + 1 < histogram::kBuckets - 1; ++b) {
    INFO("bucket " << b);
    REQUIRE(histogram::bucket_high(b) == histogram::bucket_low(b + 1));
  }
  for (int b = 0; b < histogram::kBuckets - 1; ++b) {
    INFO("bucket " << b);
    REQUIRE(histogram::bucket_of(histogram::bucket_low(b)) == b);
    REQUIRE(histogram::bucket_of(histogram::bucket_high(b) - 1) == b);
  }
  CHECK(histogram::bucket_of(UINT64_MAX) == histogram::kBuckets - 1);
}

TEST_CASE("an empty histogram reports zero count, min, max, mean and quantiles", "[histogram]") {
  const histogram h;
  CHECK(h.count() == 0);
  CHECK(h.min() == 0);
  CHECK(h.max() == 0);
  CHECK(h.mean() == 0.0);
  CHECK(h.quantile(0.5) == 0.0);
  CHECK(h.quantile(1.0) == 0.0);
}

TEST_CASE("a histogram tracks count, exact min, max and mean of recorded values", "[histogram]") {
  histogram h;
  for (std::uint64_t v : {700u, 30u, 1'000'000u, 4500u})
    h.record(v);
  CHECK(h.count() == 4);
  CHECK(h.min() == 30);
  CHECK(h.max() == 1'000'000);
  CHECK(h.mean() == Approx((700.0 + 30.0 + 1e6 + 4500.0) / 4.0));
}

TEST_CASE("values below 16 ns give exact quantiles", "[histogram]") {
  std::vector<std::uint64_t> values;
  for (std::uint64_t v = 0; v < 16; ++v)
    for (std::uint64_t k = 0; k <= v; ++k)
      values.push_back(v); // v appears v+1 times
  const histogram h = histogram_of(values);
  std::sort(values.begin(), values.end());
  for (double q : kQuantiles) {
    INFO("q = " << q);
    CHECK(h.quantile(q) == static_cast<double>(nearest_rank(values, q)));
  }
}

TEST_CASE("quantiles are within 6.25% of the exact nearest-rank quantiles of random data",
          "[histogram]") {
  struct data_set {
    const char* name;
    std::vector<std::uint64_t> values;
  };
  std::mt19937_64 gen(21);
  std::vector<std::uint64_t> bimodal;
  for (int i = 0; i < 30000; ++i)
    bimodal.push_back(i % 10 == 0 ? 50'000'000 + gen() % 10'000'000 : 80'000 + gen() % 20'000);
  const data_set sets[] = {
      {"log-uniform 100 ns .. 10 s", log_uniform(50000, 100, 1e10, 22)},
      {"log-uniform 1 ns .. 100 us", log_uniform(20000, 1, 1e5, 23)},
      {"bimodal", bimodal},
  };
  for (const auto& set : sets) {
    const histogram h = histogram_of(set.values);
    auto sorted = set.values;
    std::sort(sorted.begin(), sorted.end());
    CHECK(h.count() == sorted.size());
    CHECK(h.min() == sorted.front());
    CHECK(h.max() == sorted.back());
    for (double q : kQuantiles) {
      const auto exact = static_cast<double>(nearest_rank(sorted, q));
      const double got = h.quantile(q);
      INFO(set.name << ": q = " << q << " exact " << exact << " histogram " << got);
      CHECK(std::fabs(got - exact) <= 0.0625 * exact);
      CHECK(got >= static_cast<double>(sorted.front()));
      CHECK(got <= static_cast<double>(sorted.back()));
    }
  }
}

TEST_CASE("quantiles do not decrease as q grows", "[histogram]") {
  const histogram h = histogram_of(log_uniform(10000, 10, 1e9, 31));
  double prev = -1;
  for (int i = 0; i <= 1000; ++i) {
    const double q = static_cast<double>(i) / 1000.0;
    const double v = h.quantile(q);
    INFO("q = " << q);
    REQUIRE(v >= prev);
    prev = v;
  }
}

TEST_CASE("merging two histograms equals one histogram of all their values", "[histogram]") {
  const auto a = log_uniform(20000, 1000, 1e6, 41);
  const auto b = log_uniform(7000, 50, 1e9, 42);
  std::vector<std::uint64_t> all = a;
  all.insert(all.end(), b.begin(), b.end());

  histogram merged = histogram_of(a);
  merged.merge(histogram_of(b));
  const histogram combined = histogram_of(all);

  CHECK(merged.count() == combined.count());
  CHECK(merged.count() == all.size());
  CHECK(merged.min() == combined.min());
  CHECK(merged.max() == combined.max());
  CHECK(merged.min() == *std::min_element(all.begin(), all.end()));
  CHECK(merged.max() == *std::max_element(all.begin(), all.end()));
  CHECK(merged.mean() == combined.mean());
  for (double q : kQuantiles) {
    INFO("q = " << q);
    CHECK(merged.quantile(q) == combined.quantile(q));
  }
  CHECK(merged.to_json() == combined.to_json());
}

TEST_CASE("merging with an empty histogram leaves the other's statistics intact", "[histogram]") {
  const histogram full = histogram_of(log_uniform(1000, 100, 1e6, 51));
  histogram into_empty;
  into_empty.merge(full);
  histogram from_empty = full;
  from_empty.merge(histogram{});
  for (const histogram* h : {&into_empty, &from_empty}) {
    CHECK(h->count() == full.count());
    CHECK(h->min() == full.min());
    CHECK(h->max() == full.max());
    CHECK(h->quantile(0.5) == full.quantile(0.5));
    CHECK(h->quantile(0.99) == full.quantile(0.99));
  }
}

TEST_CASE("to_json lists only non-empty buckets as [low, high, count] in nanoseconds",
          "[histogram][json]") {
  histogram h;
  h.record(5);
  h.record(5);
  h.record(1000);
  const nlohmann::json j = h.to_json();
  CHECK(j.at("unit") == "ns");
  CHECK(j.at("sub_buckets_per_octave") == 16);
  const auto& buckets = j.at("buckets");
  REQUIRE(buckets.size() == 2);
  CHECK(buckets[0][0].get<std::uint64_t>() == 5);
  CHECK(buckets[0][1].get<std::uint64_t>() == 6);
  CHECK(buckets[0][2].get<std::uint64_t>() == 2);
  const int b1000 = histogram::bucket_of(1000);
  CHECK(buckets[1][0].get<std::uint64_t>() == histogram::bucket_low(b1000));
  CHECK(buckets[1][1].get<std::uint64_t>() == histogram::bucket_high(b1000));
  CHECK(buckets[1][2].get<std::uint64_t>() == 1);
}

TEST_CASE("from_json of to_json reproduces the histogram", "[histogram][json]") {
  const histogram h = histogram_of(log_uniform(30000, 20, 5e9, 61));
  // Through text, as a report file would carry it.
  const histogram back = histogram::from_json(nlohmann::json::parse(h.to_json().dump()));
  CHECK(back.count() == h.count());
  CHECK(back.min() == h.min());
  CHECK(back.max() == h.max());
  CHECK(back.mean() == h.mean());
  for (double q : kQuantiles) {
    INFO("q = " << q);
    CHECK(back.quantile(q) == h.quantile(q));
  }
  CHECK(back.to_json() == h.to_json());

  const histogram empty_back = histogram::from_json(histogram{}.to_json());
  CHECK(empty_back.count() == 0);
  CHECK(empty_back.min() == 0);
  CHECK(empty_back.max() == 0);
  // An empty histogram restored from JSON must still take a later minimum.
  histogram merged = empty_back;
  merged.merge(histogram_of({777}));
  CHECK(merged.min() == 777);
}

TEST_CASE("from_json rejects a histogram with a different sub-bucket count", "[histogram][json]") {
  nlohmann::json j = histogram_of({100, 200}).to_json();
  j["sub_buckets_per_octave"] = 8;
  CHECK_THROWS_AS(histogram::from_json(j), dlsize::usage_error);
  j.erase("sub_buckets_per_octave");
  CHECK_THROWS_AS(histogram::from_json(j), dlsize::usage_error);
}

TEST_CASE("the top histogram bucket's upper bound saturates instead of wrapping to zero") {
  const int top = dlsize::histogram::bucket_of(UINT64_MAX);
  CHECK(dlsize::histogram::bucket_high(top) == UINT64_MAX);
  CHECK(dlsize::histogram::bucket_low(top) < dlsize::histogram::bucket_high(top));
}
