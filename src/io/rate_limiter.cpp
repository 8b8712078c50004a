#include "io/rate_limiter.hpp"

#include <algorithm>
#include <cmath>

namespace dlsize::io {

rate_limiter::rate_limiter(double bytes_per_s) {
  if (bytes_per_s > 0) {
    m_ns_per_byte = 1e9 / bytes_per_s;
    // Idle time earns at most 20 ms of credit, so a pause is not followed by a long burst.
    m_burst_ns = 20'000'000;
  }
}

std::uint64_t rate_limiter::reserve(std::uint64_t bytes, std::uint64_t now) {
  // Rounded up, so that no request is free however small.
  const auto cost =
      static_cast<std::uint64_t>(std::ceil(static_cast<double>(bytes) * m_ns_per_byte));
  std::uint64_t cur = m_next_ns.load(std::memory_order_relaxed);
  for (;;) {
    const std::uint64_t floor = now > m_burst_ns ? now - m_burst_ns : 0;
    const std::uint64_t start = std::max(cur, floor);
    if (m_next_ns.compare_exchange_weak(cur, start + cost, std::memory_order_relaxed))
      return start;
  }
}

std::uint32_t rate_limiter::chunk(std::uint32_t request_size) const {
  if (!active())
    return request_size;
  constexpr double kSliceNs = 20e6;
  const double allowed = kSliceNs / m_ns_per_byte;
  if (allowed >= request_size)
    return request_size;
  const auto blocks = static_cast<std::uint32_t>(allowed / 4096);
  return std::max<std::uint32_t>(4096, blocks * 4096);
}

} // namespace dlsize::io
