#pragma once
// The bytes each network interface of this host received and sent (/sys/class/net/*/statistics),
// read at a run's start and end: what the hosts' NICs carried while the run read its data, the
// figure that tells a client-network limit from a storage one. The counters are the host's, not
// the process's: every transfer of the host over the run counts.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace dlsize::telemetry {

struct nic_bytes {
  std::string name;
  std::uint64_t rx_bytes = 0, tx_bytes = 0;
};

// Every interface but lo, by name; one whose counters cannot be read is left out.
std::vector<nic_bytes> read_nic_bytes(const std::filesystem::path& sys = "/sys");

// after − before, per interface present in both (a counter that went back, a NIC reset, counts
// from zero).
std::vector<nic_bytes> nic_bytes_between(const std::vector<nic_bytes>& before,
                                         const std::vector<nic_bytes>& after);

} // namespace dlsize::telemetry
