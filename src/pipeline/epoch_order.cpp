#include "pipeline/epoch_order.hpp"

#include <numeric>
#include <utility>

#include "core/rng.hpp"

namespace dlsize::pipeline {

std::vector<std::uint32_t> epoch_permutation(std::uint64_t units, std::uint64_t seed,
                                             std::uint64_t epoch) {
  std::vector<std::uint32_t> perm(units);
  std::iota(perm.begin(), perm.end(), 0u);
  xoshiro256 rng(splitmix64(seed + epoch) ^ 0xd1b54a32d192ed03ull);
  for (std::uint64_t i = units; i > 1; --i) {
    const std::uint64_t j = rng.below(i);
    std::swap(perm[i - 1], perm[j]);
  }
  return perm;
}

} // namespace dlsize::pipeline
