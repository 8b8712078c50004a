// Unit tests for src/dataset/checkpoint_block.hpp: every block is unique, and a block that is
// corrupted, stale (an earlier checkpoint) or misplaced fails its check, saying which.
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
