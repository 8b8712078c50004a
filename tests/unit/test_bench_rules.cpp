#include <catch2/catch.hpp>

#include "config/bench_rules.hpp"
#include "test_support.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using namespace dlsize::config;
using namespace dlsize::test;

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
  return refusal_after(valid_request(), change,
                       [&](const bench_request& r) { check_bench_request(r, ranks); });
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

TEST_CASE("a training bench refuses --verify and --precision when emulated, and takes stream reads",
          "[bench_rules]") {
  auto r = valid_request();
  r.verify = true;
  CHECK_THAT(
      usage_error_message([&] { check_accelerator_rules(r, accelerator_kind::emulated, 1); }),
      StartsWith("--verify: checks storage-only runs"));
  r = valid_request();
  r.shard_read = "stream";
  CHECK(check_accelerator_rules(r, accelerator_kind::emulated, 2) == 2);
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

namespace {

// A training request with checkpoints that every checkpoint rule accepts.
bench_request checkpoint_request() {
  bench_request r = valid_request();
  r.checkpoint_every = "20steps";
  r.checkpoint_dir = "ck";
  r.checkpoint_scale = 0.05;
  r.given = {"--checkpoint-every", "--checkpoint-dir", "--checkpoint-scale"};
  return r;
}

template <class Change> std::string checkpoint_refusal(Change change) {
  const auto w = dlsize::config::load_workload("llama3-8b");
  return refusal_after(checkpoint_request(), change, [&](const bench_request& r) {
    dlsize::config::check_checkpoint_options(r, w);
  });
}

} // namespace

TEST_CASE("bench's checkpoint options resolve steps or a duration, a folder and a scale",
          "[bench_rules]") {
  const auto w = dlsize::config::load_workload("llama3-8b");
  auto r = checkpoint_request();
  auto c = dlsize::config::check_checkpoint_options(r, w);
  CHECK(c.every.steps == 20);
  CHECK(c.every.seconds == 0);
  CHECK(c.dir == "ck");
  CHECK(c.scale == 0.05);
  r.checkpoint_every = "30min";
  r.checkpoint_scale = 1;
  c = dlsize::config::check_checkpoint_options(r, w);
  CHECK(c.every.steps == 0);
  CHECK(c.every.seconds == 1800);
  CHECK(c.scale == 1);
  // Without --checkpoint-every there are no checkpoints, whatever the profile.
  const auto none = dlsize::config::check_checkpoint_options(
      valid_request(), dlsize::config::load_workload("ssd300"));
  CHECK(none.every.steps == 0);
  CHECK(none.every.seconds == 0);
}

TEST_CASE("bench's optimal checkpoint interval takes the MTTF given or the default",
          "[bench_rules]") {
  const auto w = dlsize::config::load_workload("llama3-8b");
  auto r = checkpoint_request();
  r.checkpoint_every = "optimal";
  auto c = dlsize::config::check_checkpoint_options(r, w);
  CHECK(c.optimal);
  CHECK(c.mttf_s == 50000.0 * 3600);
  CHECK_THAT(c.mttf_source, Contains("MLCommons") && Contains("Llama 3"));
  r.mttf = "20h";
  r.given.insert("--mttf");
  c = dlsize::config::check_checkpoint_options(r, w);
  CHECK(c.mttf_s == 72000);
  CHECK(c.mttf_source == "--mttf 20h");
  CHECK_THAT(checkpoint_refusal([](auto& q) {
               q.checkpoint_every = "optimal";
               q.mttf = "0s";
             }),
             StartsWith("--mttf: '0s' is not above 0"));
  CHECK_THAT(checkpoint_refusal([](auto& q) {
               q.mttf = "20h";
               q.given.insert("--mttf");
             }),
             StartsWith("--mttf: picks the checkpoint interval") &&
                 Contains("--checkpoint-every optimal"));
}

TEST_CASE("bench's checkpoint options refuse a bare number, companions alone, a profile without "
          "checkpoints, no folder and a scale outside 0 to 1",
          "[bench_rules]") {
  CHECK_THAT(
      checkpoint_refusal([](auto& r) { r.checkpoint_every = "500"; }),
      StartsWith("--checkpoint-every: '500' has no unit. valid: a step count with its unit"));
  CHECK_THAT(checkpoint_refusal([](auto& r) { r.checkpoint_every = "0steps"; }),
             StartsWith("--checkpoint-every: '0steps' is zero"));
  for (const char* opt : {"--checkpoint-dir", "--checkpoint-scale"})
    CHECK(checkpoint_refusal([&](auto& r) {
            r.checkpoint_every.clear();
            r.given = {opt};
          }) ==
          std::string(opt) + ": needs --checkpoint-every STEPS|DURATION|optimal (500steps, 30min)");
  CHECK_THAT(checkpoint_refusal([](auto& r) { r.checkpoint_dir.clear(); }),
             StartsWith("--checkpoint-dir: required with --checkpoint-every"));
  CHECK(checkpoint_refusal([](auto& r) { r.checkpoint_scale = 2; }) ==
        "--checkpoint-scale: 2 is outside (0, 1]. valid: a fraction such as 0.01 of every rank's "
        "share");
  CHECK_THAT(checkpoint_refusal([](auto& r) { r.checkpoint_scale = 0; }),
             StartsWith("--checkpoint-scale: 0 is outside (0, 1]"));
  auto r = checkpoint_request();
  CHECK_THAT(usage_error_message([&] {
               dlsize::config::check_checkpoint_options(r, dlsize::config::load_workload("ssd300"));
             }),
             StartsWith("--workload: 'ssd300' has no checkpoint block. valid:"));
  // A storage-only run refuses them before their own rules.
  r = valid_request();
  r.given.insert("--checkpoint-every");
  CHECK_THAT(usage_error_message([&] { check_accelerator_rules(r, accelerator_kind::none, 1); }),
             StartsWith("--checkpoint-every: needs an accelerator"));
}

TEST_CASE("an s3:// dataset refuses the options of files, and a folder refuses --engine s3",
          "[bench_rules]") {
  auto r = valid_request();
  r.engine = "io_uring"; // the default, not given: the s3 engine reads the bucket
  check_dataset_place(r, true);
  r.given.insert("--engine");
  CHECK_THAT(usage_error_message([&] { check_dataset_place(r, true); }),
             StartsWith("--engine io_uring: an s3:// dataset is read by the s3 engine"));
  r.engine = "s3";
  check_dataset_place(r, true);
  for (const char* opt : {"--cache", "--client-ram", "--open", "--generate"}) {
    auto f = valid_request();
    f.given.insert(opt);
    CHECK_THAT(usage_error_message([&] { check_dataset_place(f, true); }),
               StartsWith(std::string(opt) + ": means nothing for an s3:// dataset"));
    check_dataset_place(f, false);
  }
  r.given.clear();
  CHECK_THAT(usage_error_message([&] { check_dataset_place(r, false); }),
             StartsWith("--engine s3: reads a dataset in a bucket") &&
                 Contains("'data' is a folder"));
}
