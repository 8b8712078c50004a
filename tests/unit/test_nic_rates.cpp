// Unit tests for src/config/nic_rates and src/telemetry/nic_counters: the NIC rates
// --nic-bandwidth declares, and what a host's NIC counters moved.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "config/nic_rates.hpp"
#include "core/error.hpp"
#include "telemetry/nic_counters.hpp"

using namespace dlsize;

TEST_CASE("the most specific declared NIC rate wins", "[nic]") {
  const auto r = config::parse_nic_rates("1Gb/s,eth0=200Mb/s,h2:eth0=100Mb/s,h3:50Mb/s", "--x");
  CHECK(config::declared_nic_rate(r, "h1", "eth0") == 25e6);
  CHECK(config::declared_nic_rate(r, "h1", "eth1") == 125e6);
  CHECK(config::declared_nic_rate(r, "h2", "eth0") == 12.5e6);
  CHECK(config::declared_nic_rate(r, "h3", "eth0") == 6.25e6);
  CHECK_FALSE(config::declared_nic_rate(config::parse_nic_rates("", "--x"), "h1", "eth0"));
}

TEST_CASE("the storage side's rate is declared apart from every host's", "[nic]") {
  const auto r = config::parse_nic_rates("storage:400Mb/s,eth0=200Mb/s", "--x");
  CHECK(config::declared_storage_rate(r) == 50e6);
  CHECK(config::declared_nic_rate(r, "h1", "eth0") == 25e6);
  CHECK_FALSE(config::declared_nic_rate(r, "h1", "eth1"));
}

TEST_CASE("a declared NIC rate that cannot be read names the option and the part", "[nic]") {
  CHECK_THROWS_WITH(config::parse_nic_rates("eth0=fast", "--nic-bandwidth"),
                    Catch::Matchers::Contains("--nic-bandwidth"));
  CHECK_THROWS_WITH(config::parse_nic_rates("=1Gb/s", "--nic-bandwidth"),
                    Catch::Matchers::Contains("'=1Gb/s'"));
  CHECK_THROWS_AS(config::parse_nic_rates("1Gb/s,,2Gb/s", "--nic-bandwidth"), usage_error);
}

TEST_CASE("NIC counters are read per interface but lo, and their deltas by name", "[nic]") {
  const auto root = std::filesystem::temp_directory_path() / "dlsize-nic-test";
  std::filesystem::remove_all(root);
  for (const auto& [nic, rx, tx] : {std::tuple{"lo", 5, 5}, {"eth0", 1000, 200}, {"eth1", 7, 9}}) {
    const auto dir = root / "class/net" / nic / "statistics";
    std::filesystem::create_directories(dir);
    std::ofstream(dir / "rx_bytes") << rx << "\n";
    std::ofstream(dir / "tx_bytes") << tx << "\n";
  }
  const auto before = telemetry::read_nic_bytes(root);
  REQUIRE(before.size() == 2);
  CHECK(before[0].name == "eth0");
  std::ofstream(root / "class/net/eth0/statistics/rx_bytes") << 4000 << "\n";
  const auto d = telemetry::nic_bytes_between(before, telemetry::read_nic_bytes(root));
  REQUIRE(d.size() == 2);
  CHECK(d[0].rx_bytes == 3000);
  CHECK(d[0].tx_bytes == 0);
  CHECK(d[1].rx_bytes == 0);
  std::filesystem::remove_all(root);
}
