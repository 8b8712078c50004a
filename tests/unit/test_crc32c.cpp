// Unit tests for src/core/crc32c.hpp: CRC32C (Castagnoli) known vectors and incremental use.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <random>
#include <string_view>
#include <vector>

#include <catch2/catch.hpp>

#include "core/crc32c.hpp"

namespace {

std::vector<unsigned char> random_bytes(std::size_t n, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::vector<unsigned char> v(n);
  for (auto& b : v)
    b = static_cast<unsigned char>(gen() & 0xff);
  return v;
}

} // namespace

TEST_CASE("crc32c of \"123456789\" is the Castagnoli check value 0xE3069283", "[crc32c]") {
  constexpr std::string_view text = "123456789";
  CHECK(dlsize::crc32c(0, text.data(), text.size()) == 0xE3069283u);
}

TEST_CASE("crc32c matches the RFC 3720 test vectors for 32-byte buffers", "[crc32c]") {
  std::array<unsigned char, 32> buf{};
  buf.fill(0x00);
  CHECK(dlsize::crc32c(0, buf.data(), buf.size()) == 0x8A9136AAu);
  buf.fill(0xFF);
  CHECK(dlsize::crc32c(0, buf.data(), buf.size()) == 0x62A8AB43u);
  for (std::size_t i = 0; i < buf.size(); ++i)
    buf[i] = static_cast<unsigned char>(i);
  CHECK(dlsize::crc32c(0, buf.data(), buf.size()) == 0x46DD794Eu);
  for (std::size_t i = 0; i < buf.size(); ++i)
    buf[i] = static_cast<unsigned char>(31 - i);
  CHECK(dlsize::crc32c(0, buf.data(), buf.size()) == 0x113FDB5Cu);
}

TEST_CASE("crc32c over zero bytes returns the running value unchanged", "[crc32c]") {
  const unsigned char dummy = 0x5a;
  CHECK(dlsize::crc32c(0, &dummy, 0) == 0u);
  CHECK(dlsize::crc32c(0xE3069283u, &dummy, 0) == 0xE3069283u);
}

TEST_CASE("crc32c extended piece by piece over random split points equals the one-shot value",
          "[crc32c]") {
  const auto data = random_bytes(4099, 1);
  const std::uint32_t whole = dlsize::crc32c(0, data.data(), data.size());
  std::mt19937_64 gen(2);
  for (int trial = 0; trial < 500; ++trial) {
    // Between 2 and 9 pieces with random (mostly unaligned) boundaries.
    const int pieces = 2 + static_cast<int>(gen() % 8);
    std::vector<std::size_t> cuts{0, data.size()};
    for (int i = 1; i < pieces; ++i)
      cuts.push_back(static_cast<std::size_t>(gen() % (data.size() + 1)));
    std::sort(cuts.begin(), cuts.end());
    std::uint32_t crc = 0;
    for (std::size_t i = 0; i + 1 < cuts.size(); ++i)
      crc = dlsize::crc32c(crc, data.data() + cuts[i], cuts[i + 1] - cuts[i]);
    INFO("trial " << trial);
    REQUIRE(crc == whole);
  }
  // Every single split point of a shorter buffer, covering all tail lengths.
  const auto small = random_bytes(67, 3);
  const std::uint32_t small_whole = dlsize::crc32c(0, small.data(), small.size());
  for (std::size_t k = 0; k <= small.size(); ++k) {
    INFO("split at " << k);
    const std::uint32_t head = dlsize::crc32c(0, small.data(), k);
    CHECK(dlsize::crc32c(head, small.data() + k, small.size() - k) == small_whole);
  }
}

TEST_CASE("crc32c does not depend on the alignment of the buffer", "[crc32c]") {
  const auto data = random_bytes(1000, 4);
  const std::uint32_t expected = dlsize::crc32c(0, data.data(), data.size());
  std::vector<unsigned char> shifted(data.size() + 16);
  for (std::size_t off = 0; off < 16; ++off) {
    std::memcpy(shifted.data() + off, data.data(), data.size());
    INFO("offset " << off);
    CHECK(dlsize::crc32c(0, shifted.data() + off, data.size()) == expected);
  }
}

TEST_CASE("crc32c changes when any single bit of the input flips", "[crc32c]") {
  auto data = random_bytes(100, 5);
  const std::uint32_t original = dlsize::crc32c(0, data.data(), data.size());
  for (std::size_t i = 0; i < data.size(); ++i) {
    for (int bit = 0; bit < 8; ++bit) {
      data[i] = static_cast<unsigned char>(data[i] ^ (1u << bit));
      const std::uint32_t flipped = dlsize::crc32c(0, data.data(), data.size());
      data[i] = static_cast<unsigned char>(data[i] ^ (1u << bit));
      if (flipped == original)
        FAIL("bit " << bit << " of byte " << i << " went undetected");
    }
  }
  CHECK(dlsize::crc32c(0, data.data(), data.size()) == original);
}
