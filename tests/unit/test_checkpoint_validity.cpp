// Unit tests for src/report/checkpoint_validity.hpp: MLPerf Storage v3.0's checkpoint rules
// (subset mode, the accelerators' memory, caches cleared before the reads) judged on numbers,
// and v1/v2 judging none, as dlsize did before v3.0.
#include <string>

#include <catch2/catch.hpp>

#include "report/checkpoint_validity.hpp"

using namespace dlsize::report;
using Catch::Matchers::Contains;

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

// llama3-8b on one host of 8 ranks, 105 GiB a checkpoint, a host of 1 TiB: well under 3 × RAM.
checkpoint_facts llama8b() {
  checkpoint_facts f;
  f.workload = "llama3-8b";
  f.ranks = f.job_ranks = 8;
  f.checkpoint_bytes = static_cast<std::uint64_t>(105 * kGiB);
  f.accelerator = "b200";
  f.hosts = {{"client1", f.checkpoint_bytes, static_cast<std::uint64_t>(1024 * kGiB)}};
  f.reads = 10;
  f.direct_reads = true;
  report::fs_separation_section fs;
  fs.checkpoints = std::string("/ck");
  fs.checkpoints_device = std::string("259:1");
  fs.results = std::string("/results");
  fs.results_device = std::string("8:1");
  fs.separate = true;
  fs.method = std::string("stat");
  f.fs_separation = fs;
  return f;
}

const validity_rule& rule(const validity& v, std::size_t i) {
  return v.rules.at(i);
}

} // namespace

TEST_CASE("a llama3-8b run on 8 b200 with O_DIRECT reads passes v3's checkpoint rules",
          "[checkpoint_validity][v3]") {
  const auto v = checkpoint_validity(llama8b(), rules_edition::v3);
  REQUIRE(v.rules.size() == 4);
  CHECK(v.verdict() == "VALID");
  for (const auto& r : v.rules) {
    CHECK_THAT(r.source, Contains("Rules.md (mlcommons/storage @"));
    CHECK_THAT(r.judge, Contains("dlsize checkpoint"));
  }
  CHECK_THAT(rule(v, 0).source, Contains("§4.3.5"));
  CHECK_THAT(rule(v, 1).source, Contains("§4.3.4"));
  CHECK_THAT(rule(v, 1).measured, Contains("8 × b200 (180 GB each, CLOSED, OPEN) hold 1.41 TiB"));
  CHECK_THAT(rule(v, 2).source, Contains("§4.3.1"));
  CHECK_THAT(rule(v, 2).measured, Contains("O_DIRECT"));
  CHECK_THAT(rule(v, 3).source, Contains("§4.4.2 checkpointFilesystemCheck"));
  CHECK(rule(v, 3).measured == "checkpoints on 259:1, results on 8:1");
  const auto j = to_json(v);
  CHECK(j["rules_edition"] == "v3");
  CHECK(j["rules"][1]["judged_by"].get<std::string>().find("--accelerator") != std::string::npos);
}

TEST_CASE("subset mode is for llama3-8b on exactly 8 accelerators", "[checkpoint_validity][v3]") {
  auto f = llama8b();
  f.subset = true;
  CHECK(rule(checkpoint_validity(f), 0).verdict == rule_verdict::pass);
  f.ranks = 4; // 4 of the job's 8
  CHECK(rule(checkpoint_validity(f), 0).verdict == rule_verdict::fail);
  f = llama8b();
  f.workload = "llama3-70b";
  f.job_ranks = 64;
  f.subset = true; // the first 8 of 64 ranks: allowed in v2.0's table, not in v3.0's
  const auto v = checkpoint_validity(f);
  CHECK(rule(v, 0).verdict == rule_verdict::fail);
  CHECK_THAT(rule(v, 0).measured, Contains("a subset run of llama3-70b on 8 accelerators"));
  CHECK(v.verdict() == "INVALID");
}

TEST_CASE("the simulated accelerators' memory must hold the checkpoint",
          "[checkpoint_validity][v3]") {
  auto f = llama8b();
  f.workload = "llama3-1t";
  f.job_ranks = 8; // a 1T checkpoint of 18 TiB over 8 × 180 GB does not fit
  f.checkpoint_bytes = static_cast<std::uint64_t>(18 * 1024 * kGiB);
  CHECK(rule(checkpoint_validity(f), 1).verdict == rule_verdict::fail);
  f.job_ranks = 1024; // the published 1024 processes hold 180 TiB
  CHECK(rule(checkpoint_validity(f), 1).verdict == rule_verdict::pass);
  // mi355's 288 GB: 64 hold 18 TiB, 64 b200 (11.25 TiB) do not.
  f.job_ranks = 64;
  f.accelerator = "mi355";
  CHECK(rule(checkpoint_validity(f), 1).verdict == rule_verdict::pass);
  f.accelerator = "b200";
  CHECK(rule(checkpoint_validity(f), 1).verdict == rule_verdict::fail);
  f.accelerator.reset(); // v3.0 fails a run that records no accelerator
  const auto v = checkpoint_validity(f);
  CHECK(rule(v, 1).verdict == rule_verdict::fail);
  CHECK_THAT(rule(v, 1).measured, Contains("no accelerator declared"));
  f.accelerator = "v100";
  CHECK_THAT(rule(checkpoint_validity(f), 1).measured, Contains("v100 is not in Table 3"));
  CHECK(checkpoint_accelerator("mi355")->gib == 288);
  CHECK_FALSE(checkpoint_accelerator("h200").has_value());
}

TEST_CASE("caches are cleared before the reads where a client's checkpoint is under 3 x RAM",
          "[checkpoint_validity][v3]") {
  auto f = llama8b();
  f.direct_reads = false; // buffered reads, nothing dropped, 105 GiB against 1 TiB of RAM
  auto v = checkpoint_validity(f);
  CHECK(rule(v, 2).verdict == rule_verdict::fail);
  CHECK_THAT(rule(v, 2).measured,
             Contains("client1 writes 105.00 GiB of a checkpoint with 1.00 TiB "
                      "of RAM (0.10 ×)"));
  f.caches_dropped = true;
  CHECK(rule(checkpoint_validity(f), 2).verdict == rule_verdict::pass);
  f.caches_dropped = false;
  f.reads_other_hosts = true;
  CHECK(rule(checkpoint_validity(f), 2).verdict == rule_verdict::pass);
  f.reads_other_hosts = false;
  f.hosts[0].ram_bytes = static_cast<std::uint64_t>(35 * kGiB); // 105 GiB is 3 × 35 GiB
  v = checkpoint_validity(f);
  CHECK(rule(v, 2).verdict == rule_verdict::pass);
  CHECK_THAT(rule(v, 2).measured, Contains("no clearing needed"));
  f.hosts[0].ram_bytes = static_cast<std::uint64_t>(36 * kGiB);
  CHECK(rule(checkpoint_validity(f), 2).verdict == rule_verdict::fail);
  // The client with the smallest share against its RAM decides.
  f.hosts = {{"a", static_cast<std::uint64_t>(200 * kGiB), static_cast<std::uint64_t>(10 * kGiB)},
             {"b", static_cast<std::uint64_t>(20 * kGiB), static_cast<std::uint64_t>(10 * kGiB)}};
  v = checkpoint_validity(f);
  CHECK(rule(v, 2).verdict == rule_verdict::fail);
  CHECK_THAT(rule(v, 2).measured, Contains("b writes 20.00 GiB"));
  f.reads = 0; // a write-only run: the read run shows the clearing
  CHECK(rule(checkpoint_validity(f), 2).verdict == rule_verdict::not_judged);
}

TEST_CASE("v1 and v2 judge no checkpoint rule", "[checkpoint_validity]") {
  auto f = llama8b();
  f.workload = "llama3-70b";
  f.subset = true;
  f.accelerator.reset();
  for (const auto e : {rules_edition::v1, rules_edition::v2}) {
    const auto v = checkpoint_validity(f, e);
    REQUIRE(v.rules.size() == 1);
    CHECK(v.rules[0].verdict == rule_verdict::not_judged);
    CHECK(v.verdict() == "not proven");
    CHECK(to_json(v)["rules_edition"] == to_string(e));
  }
}

TEST_CASE("checkpoints and the report on one file system fail v3's §4.4.2; a bucket passes; "
          "no record is not judged",
          "[checkpoint_validity][v3]") {
  auto f = llama8b();
  f.fs_separation->separate = false;
  f.fs_separation->results_device = std::string("259:1");
  auto v = checkpoint_validity(f);
  CHECK(rule(v, 3).verdict == rule_verdict::fail);
  CHECK(v.verdict() == "INVALID");
  f.fs_separation.reset();
  v = checkpoint_validity(f);
  CHECK(rule(v, 3).verdict == rule_verdict::not_judged);
  CHECK(v.verdict() == "not proven");
  f.object_store = true;
  v = checkpoint_validity(f);
  CHECK(rule(v, 3).verdict == rule_verdict::pass);
  CHECK_THAT(rule(v, 3).measured, Contains("in a bucket"));
}
