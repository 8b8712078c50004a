// Unit tests for src/config/checkpoint_profile.hpp: the checkpoint profiles and each rank's share
// against MLPerf Storage's LLM_SIZE_BY_RANK (../shared/REFERENCE.md, GiB = 1024^3 bytes).
#include <cstdint>
#include <string>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "config/workload.hpp"
#include "core/error.hpp"
#include "test_support.hpp"

namespace {

using namespace dlsize::config;
using Catch::Matchers::Contains;
using dlsize::test::usage_error_message;

constexpr std::uint64_t GiB = 1ull << 30;

checkpoint_layout closed_job(const std::string& name) {
  const auto p = require_checkpoint(load_workload(name));
  return checkpoint_shares(p, p.job_ranks(), {});
}

} // namespace

TEST_CASE("llama3 profiles hold mlpstorage's model and optimizer totals and layouts",
          "[checkpoint]") {
  struct row {
    const char* name;
    std::uint64_t model_gib, optimizer_gib;
    unsigned tp, pp, dp, zero;
  };
  for (const row& r :
       {row{"llama3-8b", 15, 90, 1, 1, 8, 3}, row{"llama3-70b", 130, 781, 8, 1, 8, 3},
        row{"llama3-405b", 755, 4533, 8, 32, 2, 1}, row{"llama3-1t", 2571, 15426, 8, 64, 2, 1}}) {
    INFO(r.name);
    const auto w = load_workload(r.name);
    CHECK_FALSE(w.has_dataset);
    const auto& p = require_checkpoint(w);
    CHECK(p.model_bytes == r.model_gib * GiB);
    CHECK(p.optimizer_bytes == r.optimizer_gib * GiB);
    CHECK(p.tensor_parallel == r.tp);
    CHECK(p.pipeline_parallel == r.pp);
    CHECK(p.data_parallel == r.dp);
    CHECK(p.zero_stage == r.zero);
    CHECK(p.model_bytes_per_parameter == 2);
    CHECK(p.optimizer_bytes_per_parameter == 12);
  }
}

TEST_CASE("ZeRO 3 profiles share model and optimizer evenly over every rank", "[checkpoint]") {
  const auto l8 = closed_job("llama3-8b");
  REQUIRE(l8.shares.size() == 8);
  for (const auto& s : l8.shares)
    CHECK(s.bytes() == (15 + 90) * GiB / 8);
  CHECK(l8.bytes() == 105 * GiB);
  const auto l70 = closed_job("llama3-70b");
  REQUIRE(l70.shares.size() == 64);
  for (const auto& s : l70.shares)
    CHECK(s.bytes() == (130 + 781) * GiB / 64);
  CHECK(l70.bytes() == 911 * GiB);
}

TEST_CASE("ZeRO 1 profiles add the model share on the first data-parallel replica only",
          "[checkpoint]") {
  const auto l = closed_job("llama3-405b");
  REQUIRE(l.shares.size() == 512);
  // 2.95 + 8.85 GiB on ranks 0-255, 8.85 GiB on ranks 256-511 (REFERENCE.md).
  for (unsigned r = 0; r < 512; ++r) {
    INFO("rank " << r);
    CHECK(l.shares[r].optimizer_bytes == 4533 * GiB / 512);
    CHECK(l.shares[r].model_bytes == (r < 256 ? 755 * GiB / 256 : 0));
  }
  CHECK(l.bytes() == 5288 * GiB);
  const auto t = closed_job("llama3-1t");
  REQUIRE(t.shares.size() == 1024);
  CHECK(t.shares[0].bytes() == 2571 * GiB / 512 + 15426 * GiB / 1024);
  CHECK(t.shares[511].model_bytes == 2571 * GiB / 512);
  CHECK(t.shares[512].bytes() == 15426 * GiB / 1024);
  CHECK(t.bytes() == 17997 * GiB);
}

TEST_CASE("a job of other ranks is re-laid with data parallel = ranks / (TP × PP)",
          "[checkpoint]") {
  const auto p = require_checkpoint(load_workload("llama3-70b"));
  const auto l = checkpoint_shares(p, 16, {});
  CHECK(l.data_parallel == 2);
  CHECK(l.job_ranks == 16);
  CHECK(l.shares.at(15).bytes() == 911 * GiB / 16);
  CHECK_THAT(usage_error_message([&] { (void)checkpoint_shares(p, 12, {}); }),
             Contains("12 ranks") && Contains("multiple of 8") && Contains("--subset"));
}

TEST_CASE("subset mode writes the full job's shares of its first ranks, scale shrinks them",
          "[checkpoint]") {
  const auto p = require_checkpoint(load_workload("llama3-405b"));
  const auto sub = checkpoint_shares(p, 4, {1, true});
  CHECK(sub.job_ranks == 512);
  REQUIRE(sub.shares.size() == 4);
  CHECK(sub.shares[3].bytes() == 755 * GiB / 256 + 4533 * GiB / 512);
  CHECK_THAT(usage_error_message([&] {
               (void)checkpoint_shares(p, 513, {1, true});
             }),
             Contains("--subset") && Contains("512"));
  const auto p8 = require_checkpoint(load_workload("llama3-8b"));
  const auto scaled = checkpoint_shares(p8, 2, {1.0 / 1024, false});
  CHECK(scaled.shares[1].bytes() == 105 * GiB / 2 / 1024);
  CHECK_THAT(usage_error_message([&] {
               (void)checkpoint_shares(p8, 2, {0, false});
             }),
             Contains("--scale"));
}

TEST_CASE("unet3d's published checkpoint is saved by rank 0, resnet50's is labelled an estimate",
          "[checkpoint]") {
  const auto u = require_checkpoint(load_workload("unet3d"));
  CHECK(u.total_bytes() == 499153191);
  CHECK_FALSE(u.estimate);
  const auto l = checkpoint_shares(u, 4, {});
  CHECK(l.shares[0].bytes() == 499153191);
  CHECK(l.shares[3].bytes() == 0);
  const auto r = require_checkpoint(load_workload("resnet50"));
  CHECK(r.estimate);
  CHECK(r.total_bytes() == 25557032ull * 8);
}

TEST_CASE("a checkpoint-only profile refuses bench and datagen, a dataset one has no checkpoint "
          "to refuse",
          "[checkpoint]") {
  const auto w = load_workload("llama3-8b");
  CHECK_THAT(usage_error_message([&] { require_dataset(w, "bench"); }),
             Contains("llama3-8b") && Contains("checkpoint-only") && Contains("resnet50") &&
                 Contains("dlsize checkpoint"));
  CHECK_THAT(usage_error_message([&] { require_dataset(w, "datagen"); }), Contains("generate"));
  CHECK_THAT(usage_error_message([] { (void)require_checkpoint(load_workload("cosmoflow")); }),
             Contains("cosmoflow") && Contains("llama3-8b"));
}

TEST_CASE("a checkpoint block whose bytes disagree with its parameters names the key",
          "[checkpoint]") {
  auto j = nlohmann::json::parse(R"({"name": "x", "checkpoint": {"parameters": 1000,
    "model_bytes_per_parameter": 2, "optimizer_bytes_per_parameter": 12, "model_bytes": 4000,
    "zero_stage": 3, "source": "test"}})");
  CHECK_THAT(usage_error_message([&] { (void)parse_workload(j.dump(), "x.json"); }),
             Contains("x.json: checkpoint.model_bytes") && Contains("5 %"));
  j["checkpoint"]["model_bytes"] = 2000;
  j["checkpoint"]["zero_stage"] = 4;
  CHECK_THAT(usage_error_message([&] { (void)parse_workload(j.dump(), "x.json"); }),
             Contains("checkpoint.zero_stage"));
}
