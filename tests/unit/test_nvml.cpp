// Unit tests for src/telemetry/nvml: absence handled without a driver, a library that is not
// NVML, and the run summary computed from samples.
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "report/bench_report.hpp"
#include "telemetry/nvml.hpp"

namespace {

using Catch::Matchers::Contains;
using dlsize::telemetry::nvml;

} // namespace

TEST_CASE("nvml without its library is absent with the reason, and samples nothing", "[nvml]") {
  const nvml n("libdlsize-no-such-nvml.so.1");
  CHECK_FALSE(n.available());
  CHECK_THAT(n.absent_reason(), Contains("libdlsize-no-such-nvml.so.1 not found"));
  CHECK(n.sample().empty());
  CHECK(n.devices().empty());
  CHECK(n.status().available.value_or(true) == false);
  CHECK_THAT(n.status().reason.value_or(""), Contains("not found"));
  CHECK(n.index_of_pci_bus_id("0000:3b:00.0") == -1);
}

TEST_CASE("nvml from a library that is not NVML is absent, saying it lacks a function", "[nvml]") {
  const nvml n("libc.so.6");
  CHECK_FALSE(n.available());
  CHECK_THAT(n.absent_reason(), Contains("lacks a needed function"));
  CHECK(n.sample().empty());
}

TEST_CASE("nvml on this host is either usable or absent with a reason", "[nvml]") {
  const nvml n;
  if (n.available()) {
    INFO("NVML is here: each sample has the index of its GPU");
    for (const auto& s : n.sample())
      CHECK(s.index.has_value());
  } else {
    CHECK_FALSE(n.absent_reason().empty());
    CHECK(n.sample().empty());
  }
}

TEST_CASE("nvml::summarize averages utilization, PCIe and power, peaks memory, and differences "
          "energy",
          "[nvml]") {
  const auto points = nlohmann::json::parse(R"([
    {"cpu_host": 0.1},
    {"gpus": [{"index": 0, "utilization": 0.5, "memory_used_bytes": 100, "pcie_rx_bytes_per_s": 1e9,
               "power_w": 300, "energy_j": 1000},
              {"index": 1, "utilization": 0.2}]},
    {"gpus": [{"index": 0, "utilization": 1.0, "memory_used_bytes": 300, "pcie_rx_bytes_per_s": 3e9,
               "power_w": 500, "energy_j": 1800},
              {"index": 1, "utilization": 0.4}]}
  ])");
  // The points as the report holds them, read typed; each summary as the report writes it.
  std::vector<std::vector<dlsize::telemetry::gpu_sample>> samples;
  for (const auto& p : dlsize::report::timeseries_from_json(points))
    if (p.gpus)
      samples.push_back(*p.gpus);
  nlohmann::json s = nlohmann::json::array();
  for (const auto& g : nvml::summarize(samples))
    s.push_back(dlsize::report::section_to_json(g));
  REQUIRE(s.size() == 2);
  CHECK(s[0]["utilization_mean"].get<double>() == Approx(0.75));
  CHECK(s[0]["memory_used_max_bytes"].get<double>() == 300);
  CHECK(s[0]["pcie_rx_bytes_per_s_mean"].get<double>() == Approx(2e9));
  CHECK(s[0]["power_w_mean"].get<double>() == Approx(400));
  CHECK(s[0]["energy_j"].get<double>() == Approx(800));
  CHECK(s[1]["utilization_mean"].get<double>() == Approx(0.3));
  CHECK(s[1]["energy_j"].is_null());
  CHECK(s[1]["power_w_mean"].is_null());
  CHECK(nvml::summarize({}).empty());
}
