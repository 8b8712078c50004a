// Unit tests for src/pipeline/epoch_order.hpp: per-epoch permutations of the units.
#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <set>
#include <vector>

#include <catch2/catch.hpp>

#include "pipeline/epoch_order.hpp"

namespace {

using dlsize::pipeline::epoch_permutation;

bool is_permutation_of_iota(std::vector<std::uint32_t> p, std::uint64_t n) {
  if (p.size() != n)
    return false;
  std::sort(p.begin(), p.end());
  for (std::uint64_t i = 0; i < n; ++i)
    if (p[static_cast<std::size_t>(i)] != i)
      return false;
  return true;
}

} // namespace

TEST_CASE("epoch_permutation returns every unit exactly once", "[epoch_order]") {
  for (const std::uint64_t n : {0ull, 1ull, 2ull, 3ull, 10ull, 1000ull, 12345ull}) {
    for (const std::uint64_t epoch : {0ull, 1ull, 99ull}) {
      INFO("units " << n << " epoch " << epoch);
      CHECK(is_permutation_of_iota(epoch_permutation(n, 42, epoch), n));
    }
  }
}

TEST_CASE("epoch_permutation is reproducible for a seed and epoch", "[epoch_order]") {
  for (const std::uint64_t seed : {0ull, 1ull, 0xdeadbeefull}) {
    for (const std::uint64_t epoch : {0ull, 5ull}) {
      CHECK(epoch_permutation(5000, seed, epoch) == epoch_permutation(5000, seed, epoch));
    }
  }
}

TEST_CASE("epoch_permutation differs from one epoch to the next", "[epoch_order]") {
  std::set<std::vector<std::uint32_t>> seen;
  for (std::uint64_t epoch = 0; epoch < 50; ++epoch)
    seen.insert(epoch_permutation(200, 42, epoch));
  CHECK(seen.size() == 50);
}

TEST_CASE("epoch_permutation differs across seeds for the same epoch", "[epoch_order]") {
  std::set<std::vector<std::uint32_t>> seen;
  for (std::uint64_t seed = 0; seed < 50; ++seed)
    seen.insert(epoch_permutation(200, seed, 3));
  CHECK(seen.size() == 50);
}

TEST_CASE("epoch_permutation actually shuffles: few units keep their place", "[epoch_order]") {
  for (std::uint64_t epoch = 0; epoch < 10; ++epoch) {
    const auto p = epoch_permutation(1000, 7, epoch);
    std::size_t fixed = 0;
    for (std::size_t i = 0; i < p.size(); ++i)
      fixed += p[i] == i ? 1 : 0;
    INFO("epoch " << epoch);
    CHECK(fixed < 10); // about 1 expected for a uniform shuffle
  }
}

TEST_CASE("epoch_permutation draws all orders of a small set about equally often",
          "[epoch_order]") {
  // 24 orders of 4 units over 24000 epochs: about 1000 each (standard deviation ~31).
  std::map<std::vector<std::uint32_t>, int> counts;
  for (std::uint64_t epoch = 0; epoch < 24000; ++epoch)
    ++counts[epoch_permutation(4, 123, epoch)];
  CHECK(counts.size() == 24);
  for (const auto& [perm, n] : counts) {
    INFO("order " << perm[0] << perm[1] << perm[2] << perm[3]);
    CHECK(n > 800);
    CHECK(n < 1200);
  }
}
