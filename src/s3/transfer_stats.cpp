#include "s3/transfer_stats.hpp"

#include <algorithm>

namespace dlsize::s3 {

void transfer_stats::merge(const transfer_stats& o) {
  requests += o.requests;
  bytes += o.bytes;
  retries += o.retries;
  errors += o.errors;
  connections += o.connections;
  for (const auto& [cause, n] : o.retries_by_cause)
    retries_by_cause[cause] += n;
  for (const auto& [cause, n] : o.errors_by_cause)
    errors_by_cause[cause] += n;
  first_byte.merge(o.first_byte);
  latency.merge(o.latency);
  if (server.empty())
    server = o.server;
}

std::uint64_t backoff_ns(const retry_policy& p, unsigned failed, std::uint64_t random) {
  const unsigned shift = std::min(failed, 40u);
  const std::uint64_t ceiling =
      p.base_ns > (p.cap_ns >> shift) ? p.cap_ns : std::min(p.cap_ns, p.base_ns << shift);
  if (ceiling == 0)
    return 0;
  __extension__ using u128 = unsigned __int128;
  return static_cast<std::uint64_t>((static_cast<u128>(random) * ceiling) >> 64);
}

} // namespace dlsize::s3
