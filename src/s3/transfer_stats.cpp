#include "s3/transfer_stats.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/error.hpp"

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

nlohmann::json transfer_stats::to_json() const {
  return {{"requests", requests},
          {"bytes", bytes},
          {"retries", retries},
          {"errors", errors},
          {"connections", connections},
          {"retries_by_cause", retries_by_cause},
          {"errors_by_cause", errors_by_cause},
          {"first_byte", first_byte.to_json()},
          {"latency", latency.to_json()},
          {"server", server}};
}

transfer_stats transfer_stats::from_json(const nlohmann::json& j) {
  try {
    transfer_stats s;
    s.requests = j.at("requests").get<std::uint64_t>();
    s.bytes = j.at("bytes").get<std::uint64_t>();
    s.retries = j.at("retries").get<std::uint64_t>();
    s.errors = j.at("errors").get<std::uint64_t>();
    s.connections = j.at("connections").get<std::uint64_t>();
    s.retries_by_cause = j.at("retries_by_cause").get<std::map<std::string, std::uint64_t>>();
    s.errors_by_cause = j.at("errors_by_cause").get<std::map<std::string, std::uint64_t>>();
    s.first_byte = histogram::from_json(j.at("first_byte"));
    s.latency = histogram::from_json(j.at("latency"));
    s.server = j.at("server").get<std::string>();
    return s;
  } catch (const nlohmann::json::exception& e) {
    throw run_error(fmt::format("S3 transfer figures are malformed: {}", e.what()));
  }
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
