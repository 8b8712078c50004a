// Unit tests for src/report/limit_verdict: what held a run's AU below 1, named from its
// figures by the written thresholds.
#include <catch2/catch.hpp>

#include "report/limit_verdict.hpp"

using namespace dlsize::report;

namespace {

limit_figures waiting_run() {
  limit_figures f;
  f.au = 0.6;
  f.busiest_reader_cpu = 0.2;
  f.host_cpu = 0.5;
  f.queue_full_share = 0.1;
  f.completion_wait_share = 0.2;
  f.queue_depth = 16;
  f.readers = 1;
  return f;
}

} // namespace

TEST_CASE("a run whose single reader is CPU-bound is named client-limited", "[limit]") {
  limit_figures f = waiting_run();
  f.busiest_reader_cpu = 0.97;
  const auto v = decide_limit(f);
  CHECK(v.kind == limit_kind::client);
  CHECK_THAT(v.reason, Catch::Matchers::Contains("97 % of a core"));
  CHECK_THAT(v.advice, Catch::Matchers::Contains("--readers"));
  REQUIRE(v.signs.size() == 1);
  CHECK(v.signs[0].side == limit_side::client);
  CHECK(v.signs[0].name == "reader_cpu");
}

TEST_CASE("a busy client with full queues is mixed, never storage", "[limit]") {
  limit_figures f = waiting_run();
  f.busiest_reader_cpu = 0.97;
  f.queue_full_share = 0.6; // the reader could not reap faster: its queue stayed full
  CHECK(decide_limit(f).kind == limit_kind::mixed);
  f = waiting_run();
  f.host_cpu = 1.0; // tmpfs under a CPU burner: reads wait because the host is busy
  f.queue_full_share = 0.9;
  const auto v = decide_limit(f);
  CHECK(v.kind == limit_kind::mixed);
  CHECK(client_side(v.kind));
  CHECK_THAT(v.reason, Catch::Matchers::Contains("host's CPU was 100 % busy"));
  CHECK_THAT(v.reason, Catch::Matchers::Contains("requests in flight"));
  CHECK_THAT(v.advice, Catch::Matchers::Contains("at least"));
  f.max_read_rate = 500e6; // a cap reached on a busy host: the client got to the known limit
  f.read_bytes_per_s = 499e6;
  CHECK(decide_limit(f).kind == limit_kind::storage);
  CHECK(decide_limit(f).synthetic);
}

TEST_CASE("a process at its CPU budget is client-limited though the host is idle", "[limit]") {
  limit_figures f = waiting_run();
  f.host_cpu = 0.3;
  f.cpu_budget_cores = 0.5; // a cgroup quota of half a core
  f.process_cpu_budget_share = 0.98;
  const auto v = decide_limit(f);
  CHECK(v.kind == limit_kind::client);
  CHECK_THAT(v.reason, Catch::Matchers::Contains("of the 0.5 cores it may use"));
  f.process_cpu_budget_share = 0.5;
  CHECK(decide_limit(f).kind == limit_kind::harness);
}

TEST_CASE("readers waiting with their queues full are storage-limited", "[limit]") {
  limit_figures f = waiting_run();
  f.queue_full_share = 0.8;
  f.mean_in_flight = 15.2;
  CHECK(decide_limit(f).kind == limit_kind::storage);
  f = waiting_run();
  f.completion_wait_share = 0.7;
  f.device_busy = 0.95;
  CHECK(decide_limit(f).kind == limit_kind::storage);
  f.device_busy = 0.5; // waiting on a device that is mostly idle: not the device
  CHECK(decide_limit(f).kind == limit_kind::harness);
}

TEST_CASE("a reached --max-read-rate is a synthetic storage limit", "[limit]") {
  limit_figures f = waiting_run();
  f.max_read_rate = 500e6;
  f.read_bytes_per_s = 499e6;
  const auto v = decide_limit(f);
  CHECK(v.kind == limit_kind::storage);
  CHECK(v.synthetic);
  f.read_bytes_per_s = 300e6;
  CHECK(decide_limit(f).kind == limit_kind::harness);
}

TEST_CASE("a saturated host is client-limited when the storage shows no limit", "[limit]") {
  limit_figures f = waiting_run();
  f.host_cpu = 0.91;
  CHECK(decide_limit(f).kind == limit_kind::client);
  f.host_cpu = 0.89;
  CHECK(decide_limit(f).kind == limit_kind::harness);
  f.queue_full_share = 0.9; // an idle client and full queues: the storage
  CHECK(decide_limit(f).kind == limit_kind::storage);
  CHECK_FALSE(client_side(limit_kind::storage));
}

TEST_CASE("AU of 0.99 or more is limited by nothing, and no AU is unknown", "[limit]") {
  limit_figures f = waiting_run();
  f.au = 0.995;
  CHECK(decide_limit(f).kind == limit_kind::nothing);
  f.au = std::nan("");
  CHECK(decide_limit(f).kind == limit_kind::unknown);
}

TEST_CASE("limit_of reads a report's verdict, or decides one from its figures", "[limit]") {
  nlohmann::json r = {{"schema", kReportSchema},
                      {"kind", "bench"},
                      {"summary", {{"accelerator_utilization", 0.5}, {"read_bytes_per_s", 1e8}}},
                      {"io", {{"max_read_rate", 1e8}, {"queue_depth", 16}}}};
  const auto typed = [&] { return bench_report::from_json(r); };
  CHECK(limit_of(typed()).kind == limit_kind::storage);
  r["summary"]["limited_by"] = to_json(limit_block(decide_limit(limit_figures_of(typed()))));
  CHECK(r["summary"]["limited_by"]["verdict"] == "storage");
  CHECK(r["summary"]["limited_by"]["figures"]["max_read_rate"] == 1e8);
  // The figures decide by the current rules, whatever verdict the report carries ...
  r["summary"]["limited_by"]["verdict"] = "harness";
  CHECK(limit_of(typed()).kind == limit_kind::storage);
  // ... and the carried verdict stands where the figures give no AU.
  r["summary"].erase("accelerator_utilization");
  r["summary"]["limited_by"]["verdict"] = "client_cpu";
  CHECK(limit_of(typed()).kind == limit_kind::client);
}

namespace {

// A report of two hosts whose eth0 carried rx bytes/s each, judged by a declared rate.
bench_report two_hosts(double rx1, double rx2, double declared_bits) {
  bench_report r;
  std::vector<host_row> hosts;
  for (const auto& [name, rx] : {std::pair{"h1", rx1}, std::pair{"h2", rx2}}) {
    host_row h;
    h.host = std::string(name);
    host_nic_row n;
    n.name = std::string("eth0");
    n.rx_bytes_per_s = rx;
    n.tx_bytes_per_s = 0.0;
    n.speed_bits_per_s = 10e9;
    n.declared_bits_per_s = declared_bits;
    n.utilization = rx * 8 / declared_bits;
    h.nics = std::vector<host_nic_row>{n};
    hosts.push_back(h);
  }
  r.hosts = hosts;
  return r;
}

} // namespace

TEST_CASE("hosts whose NICs carried their declared rate are limited by the client network",
          "[limit]") {
  const bench_report r = two_hosts(23.5e6, 24e6, 200e6);
  limit_figures f = waiting_run();
  const limit_figures net = limit_figures_of(r);
  f.client_nic_share = net.client_nic_share;
  f.client_nic = net.client_nic;
  f.client_nic_bits_per_s = net.client_nic_bits_per_s;
  f.client_nics_also = net.client_nics_also;
  f.queue_full_share = 0.6; // the link's waits, not the storage's
  const auto v = decide_limit(f);
  CHECK(v.kind == limit_kind::client);
  CHECK(client_side(v.kind));
  REQUIRE(v.signs.size() == 1);
  CHECK(v.signs[0].name == "client_network");
  CHECK_THAT(v.reason, Catch::Matchers::Contains("h2 eth0 carried 96 % of its 200 Mbit/s"));
  CHECK_THAT(v.reason, Catch::Matchers::Contains("h1 eth0 94 %"));
}

TEST_CASE("a NIC judged by its reported speed alone is far from it on a capped veth", "[limit]") {
  bench_report r = two_hosts(23.5e6, 24e6, 200e6);
  for (auto& h : *r.hosts)
    for (auto& n : *h.nics) {
      n.declared_bits_per_s = field<double>::null();
      n.utilization = *n.rx_bytes_per_s * 8 / 10e9;
    }
  const limit_figures f = limit_figures_of(r);
  CHECK(f.client_nic_share < kNicBound);
  CHECK(f.client_nic_bits_per_s == 10e9);
}

TEST_CASE("the hosts together at the storage side's declared rate are a storage-network sign",
          "[limit]") {
  bench_report r = two_hosts(7.2e6, 7.4e6, 1e9);
  r.storage.emplace();
  r.storage->network_bits_per_s = 120e6;
  limit_figures f = waiting_run();
  const limit_figures net = limit_figures_of(r);
  f.storage_network_share = net.storage_network_share;
  f.storage_network_bits_per_s = net.storage_network_bits_per_s;
  const auto v = decide_limit(f);
  CHECK(v.kind == limit_kind::storage);
  REQUIRE(v.signs.size() == 1);
  CHECK(v.signs[0].name == "storage_network");
  CHECK_THAT(v.reason, Catch::Matchers::Contains("97 % of the storage side's declared 120 Mbit/s"));
}
