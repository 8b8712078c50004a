// transfer_stats' wire form between ranks (lossless: histograms as core/histogram writes them).
#include <fmt/format.h>

#include "core/error.hpp"
#include "s3/transfer_stats.hpp"

namespace dlsize::s3 {

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

} // namespace dlsize::s3
