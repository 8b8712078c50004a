#include <catch2/catch.hpp>

#include "config/checkpoint_rules.hpp"
#include "test_support.hpp"

using Catch::Matchers::StartsWith;
using namespace dlsize::config;
using namespace dlsize::test;

namespace {

// Every other option at its default: no time limit, no label, none given.
checkpoint_request plain_request() {
  return {.workload = "llama3-8b", .dir = "ck", .time_limit = "", .label = "", .given = {}};
}

template <class Change> std::string checkpoint_opt_refusal(Change change) {
  return refusal_after(plain_request(), change, check_checkpoint_request);
}

} // namespace

TEST_CASE("checkpoint rules resolve sizes and durations as typed", "[checkpoint_rules]") {
  auto r = plain_request();
  auto v = check_checkpoint_request(r);
  CHECK(v.request_size == 1u << 20);
  CHECK(v.time_limit_s == 0);
  CHECK(v.stall_timeout_s == 60);
  r.request_size = "64KiB";
  r.time_limit = "90s";
  r.stall_timeout = "0";
  v = check_checkpoint_request(r);
  CHECK(v.request_size == 65536);
  CHECK(v.time_limit_s == 90);
  CHECK(v.stall_timeout_s == 0);
}

TEST_CASE("checkpoint rules require a workload and a folder", "[checkpoint_rules]") {
  CHECK_THAT(checkpoint_opt_refusal([](auto& r) { r.workload.clear(); }),
             StartsWith("--workload: required"));
  CHECK_THAT(checkpoint_opt_refusal([](auto& r) { r.dir.clear(); }), StartsWith("--dir: required"));
}

TEST_CASE("checkpoint rules refuse counts with nothing to do or out of range",
          "[checkpoint_rules]") {
  CHECK_THAT(checkpoint_opt_refusal([](auto& r) { r.writes = r.reads = 0; }),
             StartsWith("--writes and --reads: both 0, nothing to do"));
  CHECK(checkpoint_opt_refusal([](auto& r) { r.files_per_rank = 0; }) ==
        "--files-per-rank: 0 is outside 1 to 4096");
  CHECK(checkpoint_opt_refusal([](auto& r) { r.files_per_rank = 4097; }) ==
        "--files-per-rank: 4097 is outside 1 to 4096");
  CHECK(checkpoint_opt_refusal([](auto& r) { r.reads = 11; }) ==
        "--reads: 11 asked, but this run keeps 10 checkpoints (--writes). valid: --reads 10 or "
        "fewer");
  CHECK(checkpoint_opt_refusal([](auto& r) {
          r.keep_last = 2;
          r.reads = 3;
        }) == "--reads: 3 asked, but this run keeps 2 checkpoints (--keep-last). valid: --reads "
              "2 or fewer");
  auto restore = plain_request();
  restore.writes = 0;
  restore.reads = 50; // the folder decides how many it holds
  CHECK_NOTHROW(check_checkpoint_request(restore));
}

TEST_CASE("checkpoint rules refuse percents above 100", "[checkpoint_rules]") {
  CHECK(checkpoint_opt_refusal([](auto& r) { r.dedupe_percent = 101; }) ==
        "--dedupe-percent: 101 is outside 0 to 100 (percent)");
  CHECK(checkpoint_opt_refusal([](auto& r) { r.compress_percent = 200; }) ==
        "--compress-percent: 200 is outside 0 to 100 (percent)");
  auto r = plain_request();
  r.dedupe_percent = r.compress_percent = 100;
  CHECK_NOTHROW(check_checkpoint_request(r));
}

TEST_CASE("checkpoint rules refuse a stall timeout under a second, bad sizes and labels",
          "[checkpoint_rules]") {
  CHECK_THAT(checkpoint_opt_refusal([](auto& r) { r.stall_timeout = "200ms"; }),
             StartsWith("--stall-timeout: '200ms' is too short"));
  CHECK_THAT(checkpoint_opt_refusal([](auto& r) { r.request_size = "lots"; }),
             Catch::Matchers::Contains("--request-size: 'lots'"));
  CHECK_THAT(checkpoint_opt_refusal([](auto& r) { r.time_limit = "soon"; }),
             Catch::Matchers::Contains("--time-limit: 'soon'"));
  // As bench refuses it: a limit of 0 would stop the run before it starts.
  CHECK_THAT(checkpoint_opt_refusal([](auto& r) { r.time_limit = "0s"; }),
             StartsWith("--time-limit: '0s' would stop the run before it starts"));
  CHECK_THAT(checkpoint_opt_refusal([](auto& r) {
               r.label = "a b";
               r.given.insert("--label");
             }),
             StartsWith("--label"));
  auto r = plain_request();
  r.label = "a b"; // not given: not checked (the default is empty)
  CHECK_NOTHROW(check_checkpoint_request(r));
}
