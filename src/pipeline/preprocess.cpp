#include "pipeline/preprocess.hpp"

#include <algorithm>
#include <cstring>

#include "core/clock.hpp"
#include "core/crc32c.hpp"

namespace dlsize::pipeline {

preprocessor::preprocessor(std::uint64_t cost_ns, std::size_t max_chunk) : m_cost_ns(cost_ns) {
  if (cost_ns > 0)
    m_floats.resize(max_chunk);
}

void preprocessor::feed(const std::byte* data, std::size_t bytes) {
  if (!m_cost_ns || bytes == 0)
    return;
  const std::uint64_t t0 = thread_cpu_ns();
  m_crc = crc32c(m_crc, data, bytes);
  const std::size_t n = std::min(bytes, m_floats.size());
  const auto* u = reinterpret_cast<const unsigned char*>(data);
  for (std::size_t i = 0; i < n; ++i)
    m_floats[i] = (static_cast<float>(u[i]) - 127.5f) * (1.0f / 127.5f);
  m_valid = n;
  m_bytes += bytes;
  const std::uint64_t used = thread_cpu_ns() - t0;
  m_spent_ns += used;
  m_cpu_ns += used;
}

void preprocessor::finish_sample() {
  if (!m_cost_ns)
    return;
  ++m_samples;
  m_budget_ns += m_cost_ns;
  const std::uint64_t t0 = thread_cpu_ns();
  std::uint64_t t = t0;
  if (m_valid == 0 && m_spent_ns < m_budget_ns) { // no bytes yet (an empty sample): work on zeros
    m_floats.resize(std::max<std::size_t>(m_floats.size(), 16384));
    m_valid = 16384;
  }
  // Passes of at most 16 Ki floats between clock reads, so the budget is met within a few µs.
  const std::size_t span = std::max<std::size_t>(1, std::min<std::size_t>(m_valid, 16384));
  std::size_t at = 0;
  while (m_spent_ns + (t - t0) < m_budget_ns) {
    float s = 0;
    const std::size_t end = std::min(m_valid, at + span);
    for (std::size_t i = at; i < end; ++i) {
      m_floats[i] = m_floats[i] * 0.999f + 0.001f;
      s += m_floats[i];
    }
    m_sum += s;
    at = end >= m_valid ? 0 : end;
    ++m_passes;
    t = thread_cpu_ns();
  }
  m_cpu_ns += t - t0;
  m_spent_ns += t - t0;
  // A sample whose own work cost more than the budget does not lend time to the next one.
  if (m_spent_ns >= m_budget_ns)
    m_spent_ns = m_budget_ns = 0;
}

std::uint64_t preprocessor::digest() const {
  std::uint64_t bits = 0;
  std::memcpy(&bits, &m_sum, sizeof bits);
  return (std::uint64_t{m_crc} << 32) ^ bits;
}

} // namespace dlsize::pipeline
