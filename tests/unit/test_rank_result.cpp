// Unit tests for src/pipeline/rank_result.hpp and the merging in training_report.hpp: a rank's
// results survive the trip to rank 0, and merging ranks gives what one rank of all the
// accelerators gives.
#include <cstdint>
#include <vector>

#include <catch2/catch.hpp>

#include "pipeline/rank_result.hpp"
#include "pipeline/step_metrics.hpp"
#include "pipeline/training_report.hpp"

namespace {

using namespace dlsize;
using namespace dlsize::pipeline;

constexpr std::uint64_t kMs = 1'000'000;

// Steps of one accelerator: each waits `wait` then computes `compute` ms, epochs of `spe` steps.
std::vector<step_record> steps(std::uint64_t n, std::uint64_t wait, std::uint64_t compute,
                               std::uint64_t spe) {
  std::vector<step_record> out;
  std::uint64_t end = 0;
  for (std::uint64_t i = 0; i < n; ++i) {
    end += (wait + compute) * kMs;
    out.push_back({i, i / spe, wait * kMs, compute * kMs, 0, end, 8, 8 * 1000});
  }
  return out;
}

// A rank's point, written as a report holds it and read back typed.
report::timeseries_point point(double t, double rate, double au, double cpu_host, double cache) {
  const nlohmann::json j = {{{"t_s", t},
                             {"read_bytes_per_s", rate},
                             {"samples_per_s", rate / 1000},
                             {"cpu_process", 0.25},
                             {"cpu_host", cpu_host},
                             {"accelerator_utilization", au},
                             {"page_cache_bytes", cache}}};
  return report::timeseries_from_json(j).at(0);
}

} // namespace

TEST_CASE("a rank result survives the trip to rank 0 as JSON", "[rank_result]") {
  rank_result r;
  r.rank = 3;
  r.host = "node2";
  r.node = 1;
  r.local_rank = 1;
  r.first_accelerator = 6;
  r.devices = {"emulated:h100", "emulated:h100"};
  r.accelerators = {figures_of(steps(5, 1, 10, 5)), figures_of(steps(5, 2, 10, 5))};
  r.sample_digests = {0xdeadbeefcafef00dull, 42};
  r.epochs = epoch_partials({steps(5, 1, 10, 5)}, 1);
  r.io.bytes = 1234;
  r.io.requests = 7;
  r.io.read_latency.record(5000);
  r.io.first_error = "EIO";
  r.sample_latency.record(9000);
  r.pre_digest = UINT64_MAX;
  r.cpu.process_user_s = 1.5;
  r.storage_counter = true;
  r.storage_bytes = 99;
  r.fail_reason = "accelerator 6 step 2: 1 samples could not be read";
  const rank_result back = rank_result::from_json(nlohmann::json::parse(r.to_json().dump()));
  CHECK(back.to_json() == r.to_json());
  CHECK(back.sample_digests[0] == 0xdeadbeefcafef00dull);
  CHECK(back.accelerators[1].data_wait.count() == 4);
  CHECK(back.io.read_latency.count() == 1);
  CHECK(back.pre_digest == UINT64_MAX);
}

TEST_CASE("a rank result with a missing field is refused, naming it", "[rank_result]") {
  nlohmann::json j = rank_result{}.to_json();
  j.erase("epochs");
  CHECK_THROWS_WITH(rank_result::from_json(j), Catch::Contains("epochs"));
}

TEST_CASE("epoch partials of ranks that split the accelerators merge into the figures of all",
          "[rank_result]") {
  const std::vector<std::vector<step_record>> all = {steps(12, 1, 10, 4), steps(12, 3, 10, 4),
                                                     steps(12, 0, 10, 4), steps(12, 5, 10, 4)};
  auto first = epoch_partials({all[0], all[1]}, 3);
  const auto second = epoch_partials({all[2], all[3]}, 3);
  for (std::size_t e = 0; e < first.size(); ++e)
    first[e].merge(second[e]);
  auto rows_json = [](const std::vector<report::epoch_row>& rows) {
    report::bench_report r;
    r.epochs = rows;
    return r.to_json().at("epochs");
  };
  CHECK(rows_json(epoch_figures(first, 4, 0)) == rows_json(epoch_figures(all, 3, 0)));
  for (std::size_t e = 0; e < first.size(); ++e)
    CHECK(epoch_partial::from_json(first[e].to_json()).to_json() == first[e].to_json());
}

TEST_CASE("merged timeseries add rates over ranks and host figures once per host",
          "[rank_result]") {
  rank_result a, b, c;
  a.node = 0;
  b.node = 0; // same host as a
  c.node = 1;
  a.accelerators.resize(1);
  b.accelerators.resize(1);
  c.accelerators.resize(2);
  a.timeseries = {point(1.0, 100, 1.0, 0.5, 1000), point(2.0, 100, 1.0, 0.5, 1000)};
  b.timeseries = {point(1.01, 200, 0.5, 0.5, 1000), point(2.01, 200, 0.5, 0.5, 1000)};
  c.timeseries = {point(1.02, 300, 0.25, 0.25, 500)}; // one point fewer: the merge stops there
  const auto m = report::timeseries_to_json(merge_timeseries({a, b, c}));
  REQUIRE(m.size() == 1);
  CHECK(m[0]["t_s"] == 1.0);
  CHECK(m[0]["read_bytes_per_s"].get<double>() == Approx(600));
  CHECK(m[0]["samples_per_s"].get<double>() == Approx(0.6));
  CHECK(m[0]["cpu_process"].get<double>() == Approx(0.75));
  CHECK(m[0]["accelerator_utilization"].get<double>() == Approx((1.0 + 0.5 + 2 * 0.25) / 4));
  CHECK(m[0]["cpu_host"].get<double>() == Approx((0.5 + 0.25) / 2));
  CHECK(m[0]["page_cache_bytes"].get<double>() == Approx(1500));
  CHECK(report::timeseries_to_json(merge_timeseries({a})) ==
        report::timeseries_to_json(a.timeseries));
}
