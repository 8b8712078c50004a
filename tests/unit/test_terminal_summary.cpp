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
  const auto v = report::mlperf_validity(training(625, 5, 5, 50e9), report::rules_edition::v2);
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
  auto v = report::mlperf_validity(training(499, 5, 5, 50e9), report::rules_edition::v2);
  CHECK(v.rules[0].verdict == rule_verdict::fail);
  CHECK_THAT(v.rules[0].measured, Contains("499 steps per epoch"));
  CHECK_FALSE(v.valid());
  v = report::mlperf_validity(training(625, 5, 5, 39e9), report::rules_edition::v2); // 4.9 × RAM
  CHECK(v.rules[1].verdict == rule_verdict::fail);
  CHECK(v.rules[0].verdict == rule_verdict::pass);
  v = report::mlperf_validity(training(625, 2, 2, 50e9),
                              report::rules_edition::v2); // the workload asks 5
  CHECK(v.rules[2].verdict == rule_verdict::fail);
  CHECK_THAT(v.rules[2].measured, Contains("2 of 2 epochs ran; the workload asks 5"));
  v = report::mlperf_validity(training(625, 3, 5, 50e9),
                              report::rules_edition::v2); // stopped early
  CHECK(v.rules[2].verdict == rule_verdict::fail);
}

TEST_CASE("a storage-only run's training rules are not judged", "[validity]") {
  auto j = training(625, 5, 5, 50e9).to_json();
  j["workload"].erase("accelerator");
  j["topology"]["accelerators"] = 0;
  const auto v =
      report::mlperf_validity(report::bench_report::from_json(j), report::rules_edition::v2);
  CHECK(v.rules[0].verdict == rule_verdict::not_judged);
  CHECK(v.rules[1].verdict == rule_verdict::pass);
  CHECK(v.rules[2].verdict == rule_verdict::not_judged);
  CHECK(v.valid());
  CHECK_FALSE(v.proven());
}

TEST_CASE("the training summary prints warnings, the verdict and a stop before the last epoch",
          "[summary]") {
  auto j = training(78, 1, 2, 1e9).to_json();
  j["mlperf_validity"] = {{"rules_edition", "v2"}}; // bench judged it by v2: the summary too
  const std::string s = render::training_summary(report::bench_report::from_json(j));
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
  auto valid = training(625, 5, 5, 50e9).to_json();
  valid["mlperf_validity"] = {{"rules_edition", "v2"}};
  CHECK_THAT(render::training_summary(report::bench_report::from_json(valid)),
             !Contains("stopped     after") && Contains("validity of this run: VALID"));
  // Without an edition in the report the summary judges by v3 and says so.
  CHECK_THAT(render::training_summary(training(625, 5, 5, 50e9)),
             Contains("validity of this run (v3 rules):") &&
                 Contains("6 runs of which the first is the warm-up"));
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
  j["mlperf_validity"] = {{"rules_edition", "v1"}};
  const std::string io = render::bench_summary(report::bench_report::from_json(j));
  CHECK_THAT(io, Contains("engine psync (direct cache), readers 2"));
  CHECK_THAT(io, Contains("not judged  ≥ 500 steps per epoch"));
}

TEST_CASE("under v3 a run's dataset is held to max(500 steps of every accelerator, 5 × RAM in "
          "records), each rule citing its section of Rules.md",
          "[validity][v3]") {
  // 800,000 records of 114,660 bytes on one 8 GB client, 4 accelerators of batch 400.
  auto j = training(625, 5, 5, 800000.0 * 114660).to_json();
  j["dataset"]["samples"] = 800000;
  j["fs_separation"] = {{"separate", true}, {"dataset_device", "8:1"}, {"results_device", "0:33"}};
  auto v = report::mlperf_validity(report::bench_report::from_json(j), report::rules_edition::v3);
  CHECK(v.edition == report::rules_edition::v3);
  REQUIRE(v.rules.size() == 4);
  for (const auto& r : v.rules) {
    INFO(r.rule);
    CHECK(r.verdict == rule_verdict::pass);
    CHECK_THAT(r.source, Contains("MLPerf Storage v3.0 Rules.md"));
  }
  CHECK_THAT(v.rules[0].source, Contains("§3.1.2"));
  CHECK_THAT(v.rules[1].source, Contains("§3.6.2"));
  CHECK_THAT(v.rules[2].source, Contains("§3.3.6"));
  CHECK_THAT(v.rules[3].source, Contains("§3.4.2"));
  CHECK(v.verdict() == "VALID");
  // 500 steps × 400 × 4 = 800,000 samples: the steps half fails where the RAM half passes.
  j["dataset"]["samples"] = 799999;
  j["dataset"]["bytes"] = 799999.0 * 114660;
  v = report::mlperf_validity(report::bench_report::from_json(j), report::rules_edition::v3);
  CHECK(v.rules[0].verdict == rule_verdict::fail);
  CHECK_THAT(v.rules[0].measured, Contains("500 steps need 800000"));
  j["dataset"]["samples"] = 800000;
  j["dataset"]["bytes"] = 800000.0 * 114660;
  v = report::mlperf_validity(report::bench_report::from_json(j), report::rules_edition::v3);
  CHECK(v.rules[0].verdict == rule_verdict::pass);
  // The RAM half: 5 × 8 GB ÷ 114,660 B = 348,856 records (4.9 × RAM fails).
  j["dataset"]["samples"] = 341000;
  j["dataset"]["bytes"] = 341000.0 * 114660;
  j["workload"]["accelerator"]["batch_size"] = 1;
  v = report::mlperf_validity(report::bench_report::from_json(j), report::rules_edition::v3);
  CHECK(v.rules[0].verdict == rule_verdict::fail);
  // Data and results on one file system fail; a report that does not say is not proven.
  j["fs_separation"]["separate"] = false;
  v = report::mlperf_validity(report::bench_report::from_json(j), report::rules_edition::v3);
  CHECK(v.rules[3].verdict == rule_verdict::fail);
  j.erase("fs_separation");
  v = report::mlperf_validity(report::bench_report::from_json(j), report::rules_edition::v3);
  CHECK(v.rules[3].verdict == rule_verdict::not_judged);
}

TEST_CASE("under v3 accelerators must be the same on every node", "[validity][v3]") {
  auto j = training(625, 5, 5, 50e9).to_json();
  j["topology"] = {{"ranks", 4},
                   {"nodes", 2},
                   {"accelerators", 8},
                   {"ranks_per_node", 2},
                   {"accelerators_per_rank", 2}};
  auto v = report::mlperf_validity(report::bench_report::from_json(j), report::rules_edition::v3);
  CHECK(v.rules[2].verdict == rule_verdict::pass);
  CHECK_THAT(v.rules[2].measured, Contains("8 accelerators on 2 nodes, 4 per node"));
  j["topology"]["accelerators"] = 7;
  v = report::mlperf_validity(report::bench_report::from_json(j), report::rules_edition::v3);
  CHECK(v.rules[2].verdict == rule_verdict::fail);
}

TEST_CASE("v1 and v2 judge a run as dlsize did before v3.0, and say so", "[validity][v3]") {
  for (const auto e : {report::rules_edition::v1, report::rules_edition::v2}) {
    const auto v = report::mlperf_validity(training(625, 5, 5, 50e9), e);
    REQUIRE(v.rules.size() == 3);
    CHECK(v.rules[0].rule == "≥ 500 steps per epoch");
    CHECK(v.rules[1].rule == "dataset ≥ 5 × the clients' RAM");
    CHECK(report::to_json(v)["rules_edition"] == report::to_string(e));
  }
  CHECK(report::parse_rules_edition("v2", "--rules") == report::rules_edition::v2);
  CHECK(report::parse_rules_edition("3.0", "--rules") == report::rules_edition::v3);
  CHECK_THROWS_WITH(report::parse_rules_edition("v4", "--rules"),
                    Contains("--rules: 'v4' is not an edition") && Contains("valid: v1"));
}
