#include "telemetry/nic_counters.hpp"

#include <algorithm>
#include <system_error>

#include "telemetry/fact_files.hpp"

namespace dlsize::telemetry {

namespace fs = std::filesystem;

std::vector<nic_bytes> read_nic_bytes(const fs::path& sys) {
  std::vector<nic_bytes> out;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(sys / "class/net", ec)) {
    const std::string name = e.path().filename().string();
    if (name == "lo")
      continue;
    const auto rx = number_in(e.path() / "statistics/rx_bytes");
    const auto tx = number_in(e.path() / "statistics/tx_bytes");
    if (rx && tx)
      out.push_back({name, *rx, *tx});
  }
  std::sort(out.begin(), out.end(),
            [](const nic_bytes& a, const nic_bytes& b) { return a.name < b.name; });
  return out;
}

std::vector<nic_bytes> nic_bytes_between(const std::vector<nic_bytes>& before,
                                         const std::vector<nic_bytes>& after) {
  std::vector<nic_bytes> out;
  for (const auto& a : after) {
    const auto b = std::find_if(before.begin(), before.end(),
                                [&](const nic_bytes& x) { return x.name == a.name; });
    if (b == before.end())
      continue;
    const auto delta = [](std::uint64_t from, std::uint64_t to) {
      return to >= from ? to - from : to;
    };
    out.push_back({a.name, delta(b->rx_bytes, a.rx_bytes), delta(b->tx_bytes, a.tx_bytes)});
  }
  return out;
}

} // namespace dlsize::telemetry
