#pragma once
// A read-rate cap shared by all reader threads: each request reserves its bytes' share of time
// and may start at the reserved moment. Lock-free; one CAS per request.
#include <atomic>
#include <cstdint>

namespace dlsize::io {

class rate_limiter {
public:
  // bytes_per_s <= 0: no cap.
  explicit rate_limiter(double bytes_per_s);
  bool active() const { return m_ns_per_byte > 0; }
  // Reserves bytes and returns the monotonic time (ns) at which the request may be issued.
  std::uint64_t reserve(std::uint64_t bytes, std::uint64_t now);
  // The request length to use at this rate: request_size, or at low rates what about 20 ms of
  // the rate allows (at least 4 KiB, the direct-I/O block, and a multiple of it), so that a
  // request does not reserve minutes that a stop would then wait out.
  std::uint32_t chunk(std::uint32_t request_size) const;

private:
  double m_ns_per_byte = 0;
  std::uint64_t m_burst_ns = 0;
  std::atomic<std::uint64_t> m_next_ns{0};
};

} // namespace dlsize::io
