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
