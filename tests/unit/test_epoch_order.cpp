// Unit tests for src/pipeline/epoch_order.hpp: per-epoch permutations of the units, computed
// on the fly (a Feistel network with cycle-walking).
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <list>
#include <map>
#include <numeric>
#include <set>
#include <vector>

#include <catch2/catch.hpp>

#include "pipeline/epoch_order.hpp"

namespace {

using dlsize::pipeline::epoch_order;
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

TEST_CASE("epoch_permutation puts each unit in each position about equally often",
          "[epoch_order]") {
  // 5 units over 20000 epochs: each (unit, position) about 4000 times (standard deviation ~57).
  constexpr std::uint64_t n = 5, epochs = 20000;
  std::vector<int> counts(n * n, 0);
  for (std::uint64_t epoch = 0; epoch < epochs; ++epoch) {
    const auto p = epoch_permutation(n, 123, epoch);
    for (std::uint64_t i = 0; i < n; ++i)
      ++counts[i * n + p[i]];
  }
  for (std::uint64_t k = 0; k < n * n; ++k) {
    INFO("position " << k / n << " unit " << k % n);
    CHECK(counts[k] > 3700);
    CHECK(counts[k] < 4300);
  }
}

TEST_CASE("epoch_order is a bijection of the units at sizes around powers of four",
          "[epoch_order]") {
  for (const std::uint64_t n :
       {1ull, 2ull, 4ull, 5ull, 15ull, 16ull, 17ull, 1023ull, 1024ull, 1025ull, 65537ull}) {
    const epoch_order order(n, 9, 4);
    std::vector<bool> hit(n, false);
    bool inside = true, once = true;
    for (std::uint64_t i = 0; i < n; ++i) {
      const std::uint64_t v = order(i);
      inside = inside && v < n;
      if (v < n) {
        once = once && !hit[v];
        hit[v] = true;
      }
    }
    INFO("units " << n);
    CHECK(inside);
    CHECK(once);
  }
}

TEST_CASE("epoch_order needs no memory per epoch: any epoch is computed on its own",
          "[epoch_order]") {
  // Epoch 99999 of a 100000-epoch run, without computing the ones before it.
  const epoch_order late(1000, 5, 99999);
  CHECK(late(0) == epoch_order(1000, 5, 99999)(0));
  CHECK(epoch_permutation(1000, 5, 99999) != epoch_permutation(1000, 5, 99998));
}

TEST_CASE("an LRU cache over epoch orders hits as f + (1 - f) ln(1 - f) predicts",
          "[epoch_order]") {
  // The sizing model's LRU figure assumes each epoch is a uniform random order; a cache of
  // f × units over epochs 1..3 (epoch 0 warms it) must match it.
  constexpr std::uint64_t n = 20000;
  for (const double f : {0.25, 0.5, 0.75}) {
    const auto capacity = static_cast<std::size_t>(f * static_cast<double>(n));
    std::list<std::uint64_t> lru; // most recent first
    std::vector<std::list<std::uint64_t>::iterator> where(n);
    std::vector<bool> cached(n, false);
    std::uint64_t hits = 0, reads = 0;
    for (std::uint64_t epoch = 0; epoch < 4; ++epoch) {
      const epoch_order order(n, 77, epoch);
      for (std::uint64_t i = 0; i < n; ++i) {
        const std::uint64_t u = order(i);
        if (epoch > 0) {
          ++reads;
          hits += cached[u] ? 1 : 0;
        }
        if (cached[u]) {
          lru.erase(where[u]);
        } else if (lru.size() == capacity) {
          cached[lru.back()] = false;
          lru.pop_back();
        }
        lru.push_front(u);
        where[u] = lru.begin();
        cached[u] = true;
      }
    }
    const double expected = f + (1 - f) * std::log(1 - f);
    INFO("f " << f);
    CHECK(static_cast<double>(hits) / static_cast<double>(reads) == Approx(expected).margin(0.01));
  }
}
