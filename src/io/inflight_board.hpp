#pragma once
// Which reads are in the kernel right now, readable from another thread: each reader owns a few
// slots (one per request it can have in flight) and marks a read in one when it issues it and
// clears it when the read returns. The run's monitor asks for the oldest, to tell a stall from a
// slow step and to name the stuck file and offset; an abandoned reader's slot says what it was
// stuck on. Relaxed atomics: a reader pays two stores per request, a torn view costs a
// diagnostic at worst.
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

namespace dlsize::io {

struct inflight_read {
  unsigned reader = 0;
  std::uint32_t file = 0;
  std::uint64_t offset = 0;
  std::uint64_t length = 0;
  std::uint64_t since_ns = 0; // monotonic time it was issued
};

class inflight_board {
public:
  inflight_board(unsigned readers, unsigned slots_per_reader);
  void begin(unsigned reader, unsigned slot, std::uint32_t file, std::uint64_t offset,
             std::uint64_t length, std::uint64_t now);
  void end(unsigned reader, unsigned slot);
  // A request in flight made progress at `now` (bytes moved): its wait counts from then, so that
  // only a request that moves nothing for a while looks stuck. A no-op on an empty slot.
  void touch(unsigned reader, unsigned slot, std::uint64_t now);
  // The read in flight the longest over all readers (or over one reader), if any.
  std::optional<inflight_read> oldest() const;
  std::optional<inflight_read> oldest_of(unsigned reader) const;
  // The oldest, when it has waited at least min_age_ns at now (a stall's candidate).
  std::optional<inflight_read> waited(std::uint64_t min_age_ns, std::uint64_t now) const;

private:
  struct slot {
    std::atomic<std::uint64_t> since{0}; // 0: empty
    std::atomic<std::uint64_t> offset{0};
    std::atomic<std::uint64_t> length{0};
    std::atomic<std::uint32_t> file{0};
  };
  unsigned m_readers, m_slots;
  std::unique_ptr<slot[]> m_board;
};

// "reader 0 has waited 12.3 s for a read of FILE at offset O (L bytes)".
std::string describe(const inflight_read& r, const std::string& path, std::uint64_t now);

} // namespace dlsize::io
