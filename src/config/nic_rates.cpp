#include "config/nic_rates.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/units.hpp"

namespace dlsize::config {

namespace {

nic_rate parse_one(std::string_view part, std::string_view option) {
  nic_rate r;
  std::string_view rate = part;
  const auto eq = part.find('=');
  const auto colon = part.find(':');
  if (colon != std::string_view::npos && (eq == std::string_view::npos || colon < eq)) {
    r.host = std::string(part.substr(0, colon));
    rate = part.substr(colon + 1);
  }
  const auto eq2 = rate.find('=');
  if (eq2 != std::string_view::npos) {
    r.nic = std::string(rate.substr(0, eq2));
    rate = rate.substr(eq2 + 1);
  }
  if ((colon != std::string_view::npos && r.host.empty()) ||
      (eq2 != std::string_view::npos && r.nic.empty()))
    throw usage_error(fmt::format("{}: '{}' names an empty host or NIC. valid: RATE, NIC=RATE, "
                                  "HOST:NIC=RATE or HOST:RATE, comma-separated (eth0=25Gb/s)",
                                  option, part));
  r.bytes_per_s = units::parse_rate(rate, option);
  if (r.bytes_per_s <= 0)
    throw usage_error(fmt::format("{}: '{}': a NIC's rate must be above 0", option, part));
  return r;
}

} // namespace

nic_rates parse_nic_rates(std::string_view text, std::string_view option) {
  nic_rates out;
  while (!text.empty()) {
    const auto comma = text.find(',');
    const std::string_view part = text.substr(0, comma);
    if (part.empty())
      throw usage_error(fmt::format("{}: an empty item in '{}'. valid: RATE, NIC=RATE, "
                                    "HOST:NIC=RATE or HOST:RATE, comma-separated",
                                    option, text));
    out.push_back(parse_one(part, option));
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
  }
  return out;
}

std::optional<double> declared_nic_rate(const nic_rates& rates, const std::string& host,
                                        const std::string& nic) {
  std::optional<double> best;
  int best_rank = -1;
  for (const auto& r : rates) {
    if (r.host == kStorageSide || (!r.host.empty() && r.host != host) ||
        (!r.nic.empty() && r.nic != nic))
      continue;
    const int rank = (r.host.empty() ? 0 : 2) + (r.nic.empty() ? 0 : 1);
    if (rank >= best_rank) {
      best_rank = rank;
      best = r.bytes_per_s;
    }
  }
  return best;
}

std::optional<double> declared_storage_rate(const nic_rates& rates) {
  std::optional<double> out;
  for (const auto& r : rates)
    if (r.host == kStorageSide)
      out = r.bytes_per_s;
  return out;
}

} // namespace dlsize::config
