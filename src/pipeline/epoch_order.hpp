#pragma once
// The order in which an epoch visits its units (samples or files): a new permutation every
// epoch, drawn from seed + epoch, identical on every host, rank count and run with that seed.
// Computed on the fly, without memory: a keyed Feistel network over the smallest power-of-four
// domain that holds the units, cycle-walked back into [0, units) (an index that lands outside is
// permuted again until it lands inside; fewer than 4 steps on average). So `--epochs 100000`
// costs no more memory than one epoch.
#include <array>
#include <cstdint>
#include <vector>

namespace dlsize::pipeline {

class epoch_order {
public:
  epoch_order(std::uint64_t units, std::uint64_t seed, std::uint64_t epoch);
  // The unit visited at position i (i < units): a bijection of [0, units).
  std::uint64_t operator()(std::uint64_t i) const;
  std::uint64_t units() const { return m_units; }

private:
  // 12 rounds: with 6, the tiny domains of a few units (2-bit halves) still showed a bias of
  // about 10 % in which unit lands where; 12 bring it within sampling noise.
  static constexpr unsigned kRounds = 12;
  std::uint64_t encrypt(std::uint64_t x) const;
  std::uint64_t m_units;
  unsigned m_half_bits = 1;
  std::uint64_t m_half_mask = 1;
  std::array<std::uint64_t, kRounds> m_keys{};
};

// The whole order of an epoch, materialised (small unit counts: tests and tools).
std::vector<std::uint32_t> epoch_permutation(std::uint64_t units, std::uint64_t seed,
                                             std::uint64_t epoch);

} // namespace dlsize::pipeline
