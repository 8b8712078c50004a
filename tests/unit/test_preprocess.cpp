// Unit tests for src/pipeline/preprocess.hpp: the CPU preprocessing stage of the readers.
#include <cstddef>
#include <cstdint>
#include <vector>

#include <catch2/catch.hpp>

#include "core/clock.hpp"
#include "pipeline/preprocess.hpp"

namespace {

using dlsize::pipeline::preprocessor;

constexpr std::size_t kSample = 4096;

std::vector<std::byte> bytes_of(std::size_t n, unsigned seed) {
  std::vector<std::byte> b(n);
  for (std::size_t i = 0; i < n; ++i)
    b[i] = static_cast<std::byte>((i * 131 + seed * 17 + (i >> 8)) & 0xff);
  return b;
}

} // namespace

TEST_CASE("preprocessor with cost 0 is off and does nothing", "[preprocess]") {
  preprocessor p(0, kSample);
  CHECK_FALSE(p.enabled());
  const auto data = bytes_of(kSample, 1);
  const std::uint64_t before = p.digest();
  for (int i = 0; i < 20; ++i) {
    p.feed(data.data(), data.size());
    p.finish_sample();
  }
  CHECK(p.samples() == 0);
  CHECK(p.bytes() == 0);
  CHECK(p.cpu_ns() == 0);
  CHECK(p.extra_passes() == 0);
  CHECK(p.digest() == before);
}

TEST_CASE("preprocessor spends at least its cost in thread CPU time per sample", "[preprocess]") {
  constexpr std::uint64_t kCost = 200'000; // 200 µs
  constexpr std::uint64_t kSamples = 20;
  preprocessor p(kCost, kSample);
  CHECK(p.enabled());
  const auto data = bytes_of(kSample, 2);
  const std::uint64_t t0 = dlsize::thread_cpu_ns();
  for (std::uint64_t i = 0; i < kSamples; ++i) {
    p.feed(data.data(), data.size());
    p.finish_sample();
  }
  const std::uint64_t used = dlsize::thread_cpu_ns() - t0;
  CHECK(p.samples() == kSamples);
  const auto floor_ns = static_cast<std::uint64_t>(static_cast<double>(kSamples * kCost) * 0.9);
  CHECK(p.cpu_ns() >= floor_ns);
  // The figure it reports is CPU time this thread really spent.
  CHECK(used >= p.cpu_ns());
  // Checksumming 4 KiB costs far less than 200 µs, so extra passes make up the rest.
  CHECK(p.extra_passes() > 0);
}

TEST_CASE("preprocessor spends the cost per sample even with no bytes fed", "[preprocess]") {
  preprocessor p(100'000, kSample);
  for (int i = 0; i < 10; ++i)
    p.finish_sample();
  CHECK(p.samples() == 10);
  CHECK(p.bytes() == 0);
  CHECK(p.cpu_ns() >= 900'000);
}

TEST_CASE("preprocessor counts the bytes fed, in pieces of any size", "[preprocess]") {
  preprocessor p(1000, kSample);
  const auto data = bytes_of(10000, 3);
  p.feed(data.data(), 4096);
  p.feed(data.data() + 4096, 4096);
  p.feed(data.data() + 8192, 10000 - 8192);
  p.feed(data.data(), 0);
  p.finish_sample();
  CHECK(p.bytes() == 10000);
  CHECK(p.samples() == 1);
}

TEST_CASE("preprocessor digest depends on the bytes fed", "[preprocess]") {
  const auto a = bytes_of(kSample, 4);
  auto b = a;
  b[100] = static_cast<std::byte>(static_cast<unsigned>(b[100]) ^ 1u); // one bit differs
  preprocessor pa(1000, kSample), pb(1000, kSample), pa2(1000, kSample);
  pa.feed(a.data(), a.size());
  pb.feed(b.data(), b.size());
  pa2.feed(a.data(), a.size());
  CHECK(pa.digest() != pb.digest());
  CHECK(pa.digest() == pa2.digest()); // same bytes, same digest before the timed passes
  const preprocessor fresh(1000, kSample);
  CHECK(pa.digest() != fresh.digest());
}
