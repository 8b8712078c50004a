// Unit tests for src/io/rate_limiter.hpp: the shared read-rate cap.
#include <algorithm>
#include <cstdint>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "io/rate_limiter.hpp"

namespace {

using dlsize::io::rate_limiter;

constexpr std::uint64_t kNow = 10'000'000'000ull; // 10 s on the monotonic clock
constexpr std::uint64_t kLimiterMs = 1'000'000ull;

// Reserves `bytes` at a fixed `now` until the limiter stops granting time at or before now
// (the idle credit is spent); returns the first reservation after now and the draws needed.
std::uint64_t spend_credit(rate_limiter& r, std::uint64_t bytes, std::uint64_t now, int& draws) {
  draws = 0;
  for (;;) {
    const std::uint64_t t = r.reserve(bytes, now);
    ++draws;
    if (t > now || draws > 100000)
      return t;
  }
}

} // namespace

TEST_CASE("a rate limiter with a rate of 0 or below is inactive and never delays",
          "[rate_limiter]") {
  for (const double rate : {0.0, -1.0, -1e9}) {
    rate_limiter r(rate);
    INFO("rate " << rate);
    CHECK_FALSE(r.active());
    for (int i = 0; i < 100; ++i)
      REQUIRE(r.reserve(1'000'000'000ull, kNow) <= kNow);
    CHECK(r.reserve(4096, kNow + 5) <= kNow + 5);
  }
}

TEST_CASE("a rate limiter with a positive rate is active", "[rate_limiter]") {
  CHECK(rate_limiter(1.0).active());
  CHECK(rate_limiter(3e8).active());
}

TEST_CASE("reserve spaces reservations bytes/rate apart once the burst credit is used",
          "[rate_limiter]") {
  // 1e6 B/s and 1000-byte requests: one request per millisecond.
  rate_limiter r(1e6);
  int draws = 0;
  std::uint64_t prev = spend_credit(r, 1000, kNow, draws);
  REQUIRE(prev > kNow);
  REQUIRE(prev <= kNow + kLimiterMs);
  for (int i = 1; i <= 200; ++i) {
    const std::uint64_t t = r.reserve(1000, kNow);
    INFO("request " << i << " after the credit");
    REQUIRE(t - prev == kLimiterMs);
    prev = t;
  }
}

TEST_CASE("reservations during the burst are spaced bytes/rate apart too", "[rate_limiter]") {
  rate_limiter r(1e6);
  std::uint64_t prev = r.reserve(1000, kNow);
  for (int i = 0; i < 50; ++i) {
    const std::uint64_t t = r.reserve(1000, kNow);
    REQUIRE(t - prev == kLimiterMs);
    prev = t;
  }
}

TEST_CASE("idle time earns at most 20 ms of burst credit", "[rate_limiter]") {
  rate_limiter r(1e6);
  int draws = 0;
  (void)spend_credit(r, 1000, kNow, draws);
  // 20 ms of credit at 1 ms per request: about 20 requests start at or before now.
  CHECK(draws >= 2);
  CHECK(draws <= 22);
  // After a long pause, the credit is the same bounded amount, not the whole pause.
  const std::uint64_t later = kNow + 60'000 * kLimiterMs;
  const std::uint64_t first = r.reserve(1000, later);
  CHECK(first <= later);
  CHECK(later - first <= 20 * kLimiterMs);
  (void)spend_credit(r, 1000, later, draws);
  CHECK(draws <= 22);
}

TEST_CASE("requests arriving slower than the rate are never delayed", "[rate_limiter]") {
  rate_limiter r(1e6);
  // 1000 bytes (1 ms of budget) every 2 ms.
  for (std::uint64_t i = 0; i < 1000; ++i) {
    const std::uint64_t now = kNow + i * 2 * kLimiterMs;
    INFO("request " << i);
    REQUIRE(r.reserve(1000, now) <= now);
  }
}

TEST_CASE("reserve charges time in proportion to the bytes requested", "[rate_limiter]") {
  rate_limiter r(1e6);
  int draws = 0;
  (void)spend_credit(r, 1000, kNow, draws);
  const std::uint64_t a = r.reserve(5000, kNow); // 5 ms
  const std::uint64_t b = r.reserve(250, kNow);  // 0.25 ms
  const std::uint64_t c = r.reserve(1000, kNow);
  CHECK(b - a == 5 * kLimiterMs);
  CHECK(c - b == 250'000ull);
}

TEST_CASE("a long run of reservations averages to the configured rate", "[rate_limiter]") {
  const double rate = 3e8; // 300 MB/s
  const std::uint64_t bytes = 1 << 20;
  rate_limiter r(rate);
  const std::uint64_t first = r.reserve(bytes, kNow);
  std::uint64_t last = first;
  const int n = 10000;
  for (int i = 1; i < n; ++i)
    last = r.reserve(bytes, kNow);
  const double span_s = static_cast<double>(last - first) * 1e-9;
  const double expected_s = static_cast<double>(n - 1) * static_cast<double>(bytes) / rate;
  CHECK(span_s == Approx(expected_s).epsilon(1e-4));
}

TEST_CASE("concurrent reservations from many threads never overlap", "[rate_limiter]") {
  rate_limiter r(1e6);
  constexpr int kThreads = 4;
  constexpr int kEach = 2000;
  std::vector<std::vector<std::uint64_t>> got(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&r, &got, t] {
      for (int i = 0; i < kEach; ++i)
        got[static_cast<std::size_t>(t)].push_back(r.reserve(1000, kNow));
    });
  }
  for (auto& th : threads)
    th.join();
  std::vector<std::uint64_t> all;
  for (const auto& g : got)
    all.insert(all.end(), g.begin(), g.end());
  std::sort(all.begin(), all.end());
  REQUIRE(all.size() == static_cast<std::size_t>(kThreads * kEach));
  for (std::size_t i = 1; i < all.size(); ++i) {
    INFO("reservation " << i);
    REQUIRE(all[i] - all[i - 1] == kLimiterMs);
  }
}

TEST_CASE("rate limiter charges at least a nanosecond for the smallest request") {
  dlsize::io::rate_limiter lim(1.5e9);
  const std::uint64_t now = 1'000'000'000'000ull;
  std::uint64_t last = lim.reserve(1, now);
  for (int i = 0; i < 100; ++i)
    last = lim.reserve(1, now);
  CHECK(lim.reserve(1, now) > last);
}

TEST_CASE("rate_limiter asks for small requests at low rates, so that none reserves minutes",
          "[rate_limiter]") {
  CHECK(rate_limiter(0).chunk(1u << 20) == 1u << 20);                 // no cap
  CHECK(rate_limiter(1e9).chunk(1u << 20) == 1u << 20);               // 20 ms hold 20 MB
  CHECK(rate_limiter(10e6).chunk(1u << 20) == 200'000 / 4096 * 4096); // 20 ms at 10 MB/s
  CHECK(rate_limiter(1).chunk(1u << 20) == 4096);                     // never below a block
  CHECK(rate_limiter(1).chunk(1u << 20) % 4096 == 0);
}
