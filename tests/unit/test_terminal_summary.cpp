// Unit tests for src/report/mlperf_validity.hpp and src/render/terminal_summary.hpp: each
// MLPerf Storage rule judged on a report with its source and command, and a summary that says
// what the report says (warnings, a stop before the last epoch, rates of one window).
#include <string>

#include <catch2/catch.hpp>

#include "render/terminal_summary.hpp"
#include "report/bench_report.hpp"
#include "report/mlperf_validity.hpp"

using namespace dlsize;
using Catch::Matchers::Contains;
using report::rule_verdict;

namespace {

// A training run of 4 h100s: `spe` steps per epoch, `done` of `epochs` epochs, a dataset of
// `bytes` on one client of 8 GB of RAM; the resnet50 profile asks 5 epochs.
report::bench_report training(std::uint64_t spe, std::uint64_t done, std::uint64_t epochs,
                              double bytes) {
  const nlohmann::json j = {
      {"schema", "dlsize.report/1"},
      {"kind", "bench"},
      {"workload",
       {{"name", "resnet50"},
        {"epochs", 5},
        {"epochs_source", "DLIO resnet50 train.epochs"},
        {"accelerator", {{"type", "h100"}, {"batch_size", 400}, {"compute_time_s", 0.224}}}}},
      {"dataset", {{"bytes", bytes}, {"client_ram_bytes", 8e9}}},
      {"topology", {{"ranks", 1}, {"nodes", 1}, {"accelerators", 4}}},
      {"accelerators", {{{"device", "emulated:h100"}}}},
      {"summary",
       {{"steps_per_epoch", spe},
        {"epochs", epochs},
        {"epochs_completed", done},
        {"wall_s", 10.0},
        {"samples", 20000},
        {"samples_per_s", 2400.0},
        {"read_bytes", 2293200000},
        {"read_bytes_per_s", 2.2932e8},
        {"accelerator_utilization", 0.95},
        {"au_threshold", 0.9},
        {"au_pass", true}}},
      {"warnings", {"a warning from the run"}},
      {"status", "complete"}};
  return report::bench_report::from_json(j);
}

} // namespace

TEST_CASE("a run that meets every rule is valid, each rule with its source and command",
          "[validity]") {
  const auto v = report::mlperf_validity(training(625, 5, 5, 50e9));
  REQUIRE(v.rules.size() == 3);
  for (const auto& r : v.rules) {
    CHECK(r.verdict == rule_verdict::pass);
    CHECK_THAT(r.source, Contains("MLPerf Storage"));
    CHECK_THAT(r.judge, Contains("dlsize "));
  }
  CHECK(v.valid());
  CHECK(v.proven());
  CHECK_THAT(v.rules[0].judge, Contains("dlsize plan --workload resnet50 --accelerator h100"));
  CHECK_THAT(v.rules[2].source, Contains("DLIO resnet50 train.epochs"));
}

TEST_CASE("each rule fails on its own", "[validity]") {
  auto v = report::mlperf_validity(training(499, 5, 5, 50e9));
  CHECK(v.rules[0].verdict == rule_verdict::fail);
  CHECK_THAT(v.rules[0].measured, Contains("499 steps per epoch"));
  CHECK_FALSE(v.valid());
  v = report::mlperf_validity(training(625, 5, 5, 39e9)); // 4.9 × RAM
  CHECK(v.rules[1].verdict == rule_verdict::fail);
  CHECK(v.rules[0].verdict == rule_verdict::pass);
  v = report::mlperf_validity(training(625, 2, 2, 50e9)); // the workload asks 5
  CHECK(v.rules[2].verdict == rule_verdict::fail);
  CHECK_THAT(v.rules[2].measured, Contains("2 of 2 epochs ran; the workload asks 5"));
  v = report::mlperf_validity(training(625, 3, 5, 50e9)); // stopped early
  CHECK(v.rules[2].verdict == rule_verdict::fail);
}

TEST_CASE("a storage-only run's training rules are not judged", "[validity]") {
  auto j = training(625, 5, 5, 50e9).to_json();
  j["workload"].erase("accelerator");
  j["topology"]["accelerators"] = 0;
  const auto v = report::mlperf_validity(report::bench_report::from_json(j));
  CHECK(v.rules[0].verdict == rule_verdict::not_judged);
  CHECK(v.rules[1].verdict == rule_verdict::pass);
  CHECK(v.rules[2].verdict == rule_verdict::not_judged);
  CHECK(v.valid());
  CHECK_FALSE(v.proven());
}

TEST_CASE("the training summary prints warnings, the verdict and a stop before the last epoch",
          "[summary]") {
  const std::string s = render::training_summary(training(78, 1, 2, 1e9));
  CHECK_THAT(s, Contains("resnet50 on 4 × emulated:h100 (batch 400"));
  CHECK_THAT(s, Contains("warning     a warning from the run"));
  CHECK_THAT(s, Contains("stopped     after 1 of 2 epochs"));
  CHECK_THAT(s, Contains("MLPerf Storage validity of this run: INVALID"));
  // The rules of a point are not this run's: the summary names the commands that judge them.
  CHECK_THAT(s, Contains("judged over its runs by dlsize size and dlsize compare"));
  CHECK_THAT(s, Contains("FAIL        ≥ 500 steps per epoch: 78 steps per epoch"));
  // samples/s beside the read rate are over the same wall: 20000 samples in 10 s.
  CHECK_THAT(s, Contains("2000.0 samples/s over the same 10.00 s"));
  CHECK_THAT(s, Contains("AU          95.0 % (threshold 90 %: PASS)"));
  CHECK_THAT(render::training_summary(training(625, 5, 5, 50e9)),
             !Contains("stopped     after") && Contains("validity of this run: VALID"));
}

TEST_CASE("the bench summary names the backend, the allreduce and the limit from the report",
          "[summary]") {
  nlohmann::json j = training(625, 5, 5, 50e9).to_json();
  j["dataset"]["path"] = "/mnt/nfs/r50";
  j["dataset"]["fs_type"] = "nfs4";
  j["topology"]["allreduce"] = {
      {"algorithm", "ring"}, {"nodes", 2}, {"accelerators_per_node", 2}, {"exposed_s", 0.004}};
  j["summary"]["storage_au"] = 0.93;
  j["summary"]["comm_time_fraction"] = 0.02;
  j["summary"]["limited_by"] = {{"verdict", "storage"}, {"reason", "queues full 80 % of the time"}};
  const std::string s = render::bench_summary(report::bench_report::from_json(j));
  CHECK_THAT(s, Contains("  backend     /mnt/nfs/r50 (nfs4)\n"));
  CHECK_THAT(s, Contains("allreduce   ring over 2 x 2: 4.000 ms exposed per step, 2.0 %"));
  CHECK_THAT(s, Contains("AU          95.0 %, storage AU 93.0 % (threshold 90 %: PASS)"));
  CHECK_THAT(s, Contains("limited by  storage: queues full 80 % of the time"));
  j.erase("workload");
  j["io"] = {{"engine", "psync"}, {"cache_mode", "direct"}, {"readers", 2}};
  const std::string io = render::bench_summary(report::bench_report::from_json(j));
  CHECK_THAT(io, Contains("engine psync (direct cache), readers 2"));
  CHECK_THAT(io, Contains("not judged  ≥ 500 steps per epoch"));
}
