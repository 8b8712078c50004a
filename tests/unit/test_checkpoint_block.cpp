// Unit tests for src/dataset/checkpoint_block.hpp: every block is unique, and a block that is
// corrupted, stale (an earlier checkpoint) or misplaced fails its check, saying which.
#include <algorithm>
#include <cstring>
#include <vector>

#include <catch2/catch.hpp>

#include "dataset/checkpoint_block.hpp"

namespace {

using namespace dlsize::dataset;
using Catch::Matchers::Contains;

constexpr std::size_t kBlock = 64 * 1024;

std::vector<std::byte> block_of(const block_pool& pool, const block_id& id, std::size_t len) {
  std::vector<std::byte> b(len);
  pool.fill(id, b.data(), len);
  return b;
}

} // namespace

TEST_CASE("a checkpoint block checks against the id it was written for", "[checkpoint]") {
  const block_pool pool(1 << 20, kBlock, 7);
  const block_id id{42, 3, 1, 5, 2 * kBlock};
  const auto b = block_of(pool, id, kBlock);
  CHECK(check_block(id, b.data(), b.size()).empty());
}

TEST_CASE("blocks of other offsets, ranks or checkpoints differ in header and payload",
          "[checkpoint]") {
  const block_pool pool(1 << 20, kBlock, 7);
  const block_id id{42, 3, 1, 5, 0};
  const auto a = block_of(pool, id, kBlock);
  for (block_id other : {block_id{42, 3, 1, 5, kBlock}, block_id{42, 4, 1, 5, 0},
                         block_id{42, 3, 1, 6, 0}, block_id{43, 3, 1, 5, 0}}) {
    const auto b = block_of(pool, other, kBlock);
    CHECK(std::memcmp(a.data(), b.data(), kBlockHeaderBytes) != 0);
    CHECK(std::memcmp(a.data() + kBlockHeaderBytes, b.data() + kBlockHeaderBytes,
                      kBlock - kBlockHeaderBytes) != 0);
  }
}

TEST_CASE("a block from an earlier checkpoint fails as stale, naming both checkpoints",
          "[checkpoint]") {
  const block_pool pool(1 << 20, kBlock, 7);
  const auto old_block = block_of(pool, {42, 0, 0, 3, 0}, kBlock);
  CHECK_THAT(check_block({42, 0, 0, 4, 0}, old_block.data(), kBlock),
             Contains("checkpoint 3, expected 4") && Contains("stale"));
  CHECK_THAT(check_block({42, 0, 0, 3, kBlock}, old_block.data(), kBlock), Contains("offset"));
}

TEST_CASE("a flipped payload byte fails the checksum", "[checkpoint]") {
  const block_pool pool(1 << 20, kBlock, 7);
  const block_id id{42, 0, 0, 1, 0};
  auto b = block_of(pool, id, kBlock);
  b[kBlock / 2] ^= std::byte{1};
  CHECK_THAT(check_block(id, b.data(), kBlock), Contains("checksum") && Contains("corrupted"));
}

TEST_CASE("a tail shorter than the header is its header's first bytes and still checks",
          "[checkpoint]") {
  const block_pool pool(1 << 20, kBlock, 7);
  const block_id id{42, 0, 0, 1, 8 * kBlock};
  for (std::size_t len : {std::size_t{1}, std::size_t{40}, kBlockHeaderBytes + 1}) {
    INFO("len " << len);
    auto b = block_of(pool, id, len);
    CHECK(check_block(id, b.data(), len).empty());
    b[0] ^= std::byte{1};
    CHECK_FALSE(check_block(id, b.data(), len).empty());
  }
}

namespace {

// The payloads of n consecutive blocks of one file, as written with `content`.
std::vector<std::vector<std::byte>> payloads(block_content content, std::size_t n) {
  const block_pool pool(1 << 20, kBlock, 7, content);
  std::vector<std::vector<std::byte>> out;
  for (std::size_t i = 0; i < n; ++i) {
    const auto b = block_of(pool, {42, 0, 0, 1, i * kBlock}, kBlock);
    out.emplace_back(b.begin() + kBlockHeaderBytes, b.end());
  }
  return out;
}

// Blocks whose payload equals some other block's.
std::size_t repeated(const std::vector<std::vector<std::byte>>& p) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < p.size(); ++i)
    for (std::size_t j = 0; j < p.size(); ++j)
      if (i != j && p[i] == p[j]) {
        ++n;
        break;
      }
  return n;
}

double zero_share(const std::vector<std::byte>& p) {
  return static_cast<double>(std::count(p.begin(), p.end(), std::byte{0})) /
         static_cast<double>(p.size());
}

} // namespace

TEST_CASE("with --dedupe-percent 50 about half the blocks repeat another's payload, headers "
          "still unique and every block checking",
          "[checkpoint]") {
  CHECK(repeated(payloads({}, 200)) == 0);
  const auto p = payloads({50, 0}, 200);
  const std::size_t n = repeated(p);
  CHECK(n >= 80);
  CHECK(n <= 120);
  CHECK(repeated(payloads({100, 0}, 20)) == 20);
  const block_pool pool(1 << 20, kBlock, 7, {50, 0});
  for (std::uint64_t off : {std::uint64_t{0}, kBlock, 5 * kBlock}) {
    const block_id id{42, 0, 0, 1, off};
    const auto b = block_of(pool, id, kBlock);
    CHECK(check_block(id, b.data(), kBlock).empty());
  }
}

TEST_CASE("with --compress-percent 50 half of every 4 KiB of payload is zeros, the rest random",
          "[checkpoint]") {
  CHECK(zero_share(payloads({}, 1)[0]) < 0.01);
  const auto p = payloads({0, 50}, 4);
  for (const auto& b : p) {
    CHECK(zero_share(b) == Approx(0.5).margin(0.01));
    // The random half of the first chunk has few zeros: it is not compressible.
    CHECK(std::count(b.begin(), b.begin() + kCompressChunkBytes / 2, std::byte{0}) < 64);
  }
  CHECK(repeated(p) == 0); // compressible, yet still unique
  const block_pool pool(1 << 20, kBlock, 7, {0, 50});
  const block_id id{42, 0, 0, 1, 0};
  auto b = block_of(pool, id, kBlock);
  CHECK(check_block(id, b.data(), kBlock).empty());
  b[kBlock - 1] ^= std::byte{1}; // a zero byte corrupted still fails
  CHECK_FALSE(check_block(id, b.data(), kBlock).empty());
}
