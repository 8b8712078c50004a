#pragma once
// --nic-bandwidth on bench: the NICs' rates as declared, since the speed a NIC reports can lie
// (a veth says 10 Gb/s whatever its tc cap, a bond sums links a single flow cannot use). The
// report's hosts[].nics judge what each NIC carried against it, and summary.limited_by names a
// host whose NIC sat at it.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dlsize::config {

// One declared rate: for every NIC (host and nic empty), one NIC of every host, or one host's.
struct nic_rate {
  std::string host, nic;
  double bytes_per_s = 0;
};

using nic_rates = std::vector<nic_rate>;

// "RATE", "NIC=RATE", "HOST:NIC=RATE" or "HOST:RATE" (every NIC of one host), comma-separated;
// rates as units::parse_rate reads them (200Mb/s, 25GbE). The host name `storage` stands for
// the storage side (its NICs or front end together: "storage:400Mb/s"). Empty text: none.
// Throws usage_error naming the option and the part it could not read.
nic_rates parse_nic_rates(std::string_view text, std::string_view option);

inline constexpr const char* kStorageSide = "storage";

// The rate declared for one host's NIC: the most specific that names it (host and NIC, then
// the host, then the NIC, then every NIC), or none. The storage side's is not a host's.
std::optional<double> declared_nic_rate(const nic_rates& rates, const std::string& host,
                                        const std::string& nic);

// The storage side's network rate (storage:RATE), or none.
std::optional<double> declared_storage_rate(const nic_rates& rates);

} // namespace dlsize::config
