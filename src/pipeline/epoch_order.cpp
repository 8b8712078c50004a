#include "pipeline/epoch_order.hpp"

#include "core/rng.hpp"

namespace dlsize::pipeline {

epoch_order::epoch_order(std::uint64_t units, std::uint64_t seed, std::uint64_t epoch)
    : m_units(units) {
  // Halves of at least one bit, so that even 1 or 2 units have a domain to walk in.
  while (m_half_bits < 32 && (std::uint64_t{1} << (2 * m_half_bits)) < units)
    ++m_half_bits;
  m_half_mask = (std::uint64_t{1} << m_half_bits) - 1;
  std::uint64_t k = splitmix64(seed + epoch) ^ 0xd1b54a32d192ed03ull;
  for (auto& key : m_keys) {
    k = splitmix64(k);
    key = k;
  }
}

std::uint64_t epoch_order::encrypt(std::uint64_t x) const {
  std::uint64_t left = x >> m_half_bits, right = x & m_half_mask;
  for (const std::uint64_t key : m_keys) {
    const std::uint64_t f = splitmix64(right ^ key) & m_half_mask;
    const std::uint64_t next = left ^ f;
    left = right;
    right = next;
  }
  return (left << m_half_bits) | right;
}

std::uint64_t epoch_order::operator()(std::uint64_t i) const {
  // Cycle-walking: the network permutes the whole domain, so following it from i inside
  // [0, units) returns inside it; the induced map on [0, units) is a bijection.
  std::uint64_t x = encrypt(i);
  while (x >= m_units)
    x = encrypt(x);
  return x;
}

std::vector<std::uint32_t> epoch_permutation(std::uint64_t units, std::uint64_t seed,
                                             std::uint64_t epoch) {
  const epoch_order order(units, seed, epoch);
  std::vector<std::uint32_t> perm(units);
  for (std::uint64_t i = 0; i < units; ++i)
    perm[i] = static_cast<std::uint32_t>(order(i));
  return perm;
}

} // namespace dlsize::pipeline
