#include "io/inflight_board.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace dlsize::io {

inflight_board::inflight_board(unsigned readers, unsigned slots_per_reader)
    : m_readers(readers), m_slots(slots_per_reader),
      m_board(std::make_unique<slot[]>(std::size_t{readers} * slots_per_reader)) {}

void inflight_board::begin(unsigned reader, unsigned s, std::uint32_t file, std::uint64_t offset,
                           std::uint64_t length, std::uint64_t now) {
  slot& x = m_board[std::size_t{reader} * m_slots + s];
  x.file.store(file, std::memory_order_relaxed);
  x.offset.store(offset, std::memory_order_relaxed);
  x.length.store(length, std::memory_order_relaxed);
  x.since.store(now ? now : 1, std::memory_order_release);
}

void inflight_board::end(unsigned reader, unsigned s) {
  m_board[std::size_t{reader} * m_slots + s].since.store(0, std::memory_order_relaxed);
}

void inflight_board::touch(unsigned reader, unsigned s, std::uint64_t now) {
  std::atomic<std::uint64_t>& since = m_board[std::size_t{reader} * m_slots + s].since;
  std::uint64_t was = since.load(std::memory_order_relaxed);
  while (was != 0 && was < now &&
         !since.compare_exchange_weak(was, now, std::memory_order_release,
                                      std::memory_order_relaxed)) {
  }
}

std::optional<inflight_read> inflight_board::oldest_of(unsigned reader) const {
  std::optional<inflight_read> best;
  for (unsigned s = 0; s < m_slots; ++s) {
    const slot& x = m_board[std::size_t{reader} * m_slots + s];
    const std::uint64_t since = x.since.load(std::memory_order_acquire);
    if (since == 0 || (best && best->since_ns <= since))
      continue;
    best = inflight_read{reader, x.file.load(std::memory_order_relaxed),
                         x.offset.load(std::memory_order_relaxed),
                         x.length.load(std::memory_order_relaxed), since};
  }
  return best;
}

std::optional<inflight_read> inflight_board::oldest() const {
  std::optional<inflight_read> best;
  for (unsigned r = 0; r < m_readers; ++r) {
    const auto o = oldest_of(r);
    if (o && (!best || o->since_ns < best->since_ns))
      best = o;
  }
  return best;
}

std::optional<inflight_read> inflight_board::waited(std::uint64_t min_age_ns,
                                                    std::uint64_t now) const {
  auto r = oldest();
  if (!r || now - std::min(now, r->since_ns) < min_age_ns)
    return std::nullopt;
  return r;
}

std::string describe(const inflight_read& r, const std::string& path, std::uint64_t now) {
  const double waited = now > r.since_ns ? static_cast<double>(now - r.since_ns) * 1e-9 : 0.0;
  return fmt::format("reader {} has waited {:.1f} s for a read of {} at offset {} ({} bytes)",
                     r.reader, waited, path, r.offset, r.length);
}

} // namespace dlsize::io
