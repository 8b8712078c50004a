#include <catch2/catch.hpp>

#include "config/bench_rules.hpp"
#include "test_support.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using dlsize::config::accelerator_kind;
using dlsize::config::bench_request;
using dlsize::config::check_accelerator_rules;
using dlsize::config::check_bench_request;
using dlsize::test::usage_error_message;

namespace {

// A request every rule accepts, as bench's defaults give it.
bench_request valid_request() {
  bench_request r;
  r.workload = "resnet50";
  r.dataset = "data";
  r.rank_timeout = "60s";
  r.sample_interval = "1s";
  r.status_interval = "30s";
  r.stall_timeout = "60s";
  r.shard_read = "records";
  r.open = "keep";
  return r;
}

template <class Change> std::string refusal(Change change, std::uint64_t ranks = 1) {
  bench_request r = valid_request();
  change(r);
  return usage_error_message([&] { check_bench_request(r, ranks); });
}

} // namespace

TEST_CASE("bench rules accept the defaults and resolve their durations", "[bench_rules]") {
  auto r = valid_request();
  r.time_limit = "2m";
  r.open = "per-sample";
  const auto t = check_bench_request(r, 1);
  CHECK(t.rank_timeout_s == 60);
  CHECK(t.sample_interval_s == 1);
  CHECK(t.status_interval_s == 30);
  CHECK(t.time_limit_s == 120);
  CHECK(t.stall_timeout_s == 60);
  CHECK_FALSE(t.keep_open);
  r.stall_timeout = "0";
  CHECK(check_bench_request(r, 1).stall_timeout_s == 0);
}

TEST_CASE("bench rules require a workload and a dataset", "[bench_rules]") {
  CHECK_THAT(refusal([](auto& r) { r.workload.clear(); }), StartsWith("--workload: required"));
  CHECK_THAT(refusal([](auto& r) { r.dataset.clear(); }), StartsWith("--dataset: required"));
}

TEST_CASE("bench rules refuse durations below their minimum, naming the option", "[bench_rules]") {
  CHECK_THAT(refusal([](auto& r) { r.rank_timeout = "500ms"; }),
             Contains("--rank-timeout: must be at least 1s"));
  CHECK_THAT(refusal([](auto& r) { r.sample_interval = "10ms"; }),
             Contains("--sample-interval: must be at least 50ms"));
  CHECK_THAT(refusal([](auto& r) { r.status_interval = "0.5s"; }),
             Contains("--status-interval: must be at least 1s"));
  CHECK_THAT(refusal([](auto& r) { r.time_limit = "0s"; }),
             Contains("--time-limit: '0s' would stop the run before it starts"));
  CHECK_THAT(refusal([](auto& r) { r.stall_timeout = "200ms"; }),
             Contains("--stall-timeout: '200ms' is too short. valid: 1s or more, or 0 (never)"));
  CHECK_THAT(usage_error_message([] { dlsize::config::stall_timeout_of("0.5s"); }),
             Contains("--stall-timeout: '0.5s' is too short"));
}

TEST_CASE("bench rules refuse bad counts, labels, values and a replay under another rank count",
          "[bench_rules]") {
  CHECK_THAT(refusal([](auto& r) { r.epochs = 0; }), Contains("--epochs: must be at least 1"));
  CHECK_THAT(refusal([](auto& r) {
               r.label = "a b";
               r.given.insert("--label");
             }),
             StartsWith("--label:"));
  // A label left at its default (not given) is not checked.
  CHECK(refusal([](auto& r) { r.label = "a b"; }) == "<no exception>");
  CHECK_THAT(refusal([](auto& r) { r.shard_read = "chunks"; }),
             Contains("--shard-read: invalid value 'chunks'"));
  CHECK_THAT(refusal([](auto& r) { r.open = "never"; }), Contains("--open: invalid value 'never'"));
  CHECK_THAT(refusal([](auto& r) { r.replay_ranks = 4; }, 2),
             Contains("--replay: the report's run had 4 ranks, this job has 2"));
  CHECK(refusal([](auto& r) { r.replay_ranks = 2; }, 2) == "<no exception>");
  CHECK_THAT(usage_error_message([] { dlsize::config::check_run_source("r.json", "c.json"); }),
             StartsWith("--replay and --config: give one of them"));
}

TEST_CASE("a storage-only bench takes no training option and runs as one process",
          "[bench_rules]") {
  for (const char* opt : {"--accelerators", "--accelerators-per-rank", "--prefetch", "--sync-steps",
                          "--preprocess", "--au-threshold", "--precision"}) {
    auto r = valid_request();
    r.given.insert(opt);
    CHECK_THAT(usage_error_message([&] { check_accelerator_rules(r, accelerator_kind::none, 1); }),
               StartsWith(std::string(opt) + ": needs an accelerator"));
  }
  const auto r = valid_request();
  CHECK(check_accelerator_rules(r, accelerator_kind::none, 1) == 0);
  CHECK_THAT(usage_error_message([&] { check_accelerator_rules(r, accelerator_kind::none, 2); }),
             StartsWith("--accelerator none: storage-only runs are one process"));
}

TEST_CASE("a training bench refuses --verify, stream reads and --precision when emulated",
          "[bench_rules]") {
  auto r = valid_request();
  r.verify = true;
  CHECK_THAT(
      usage_error_message([&] { check_accelerator_rules(r, accelerator_kind::emulated, 1); }),
      StartsWith("--verify: checks storage-only runs"));
  r = valid_request();
  r.shard_read = "stream";
  CHECK_THAT(
      usage_error_message([&] { check_accelerator_rules(r, accelerator_kind::emulated, 1); }),
      StartsWith("--shard-read: training runs read samples by index"));
  r = valid_request();
  r.given.insert("--precision");
  CHECK_THAT(
      usage_error_message([&] { check_accelerator_rules(r, accelerator_kind::emulated, 1); }),
      StartsWith("--precision: applies to --accelerator cuda"));
  CHECK(check_accelerator_rules(r, accelerator_kind::cuda, 1) == 1);
}

TEST_CASE("a training bench's accelerators are shared equally by its ranks", "[bench_rules]") {
  auto r = valid_request();
  CHECK(check_accelerator_rules(r, accelerator_kind::emulated, 3) == 3);
  r.accelerators_per_rank = 2;
  CHECK(check_accelerator_rules(r, accelerator_kind::emulated, 3) == 6);
  r.accelerators = 6;
  CHECK(check_accelerator_rules(r, accelerator_kind::emulated, 3) == 6);
  r.accelerators = 5;
  CHECK_THAT(
      usage_error_message([&] { check_accelerator_rules(r, accelerator_kind::emulated, 3); }),
      StartsWith("--accelerators 5 and --accelerators-per-rank 2 disagree over 3 ranks"));
  r.accelerators_per_rank = 0;
  CHECK_THAT(
      usage_error_message([&] { check_accelerator_rules(r, accelerator_kind::emulated, 3); }),
      StartsWith("--accelerators: 5 cannot be shared equally by 3 ranks"));
  r.accelerators = 8;
  CHECK(check_accelerator_rules(r, accelerator_kind::emulated, 4) == 8);
}
