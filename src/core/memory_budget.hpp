#pragma once
// Memory that options ask for as a product (queue depth × request size × readers, steps ×
// accelerators, files × records per file), checked before it is allocated, so that a large
// figure is a usage error naming the options and the figure rather than std::bad_alloc, the
// OOM killer or a product wrapped around to a small number.
#include <cstdint>
#include <string>

namespace dlsize::core {

// a × b, or UINT64_MAX when the product does not fit in 64 bits.
std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b);

// Throws usage_error when `bytes` exceed ram_bytes (0: this host's RAM, MemTotal): "WHAT need
// BYTES (human) of memory, more than this host's RAM (human). valid: VALID". Not checked where
// the RAM is unknown.
void check_memory_budget(std::uint64_t bytes, const std::string& what, const std::string& valid,
                         std::uint64_t ram_bytes = 0);

} // namespace dlsize::core
