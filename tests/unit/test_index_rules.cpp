// Unit tests for src/dataset/index_rules.hpp: `dlsize index`'s option rules, each refusal
// naming the option and what is valid.
#include <catch2/catch.hpp>

#include "dataset/index_rules.hpp"
#include "test_support.hpp"

using Catch::Matchers::Contains;
using namespace dlsize::dataset;
using namespace dlsize::test;

namespace {

// A folder walked whole: no list of paths or keys, nothing excluded.
index_scan_request request() {
  return {.dir = "/data", .out = "/tmp/i.json", .files_from = {}, .keys = {}, .exclude = {}};
}

std::string refusal(const index_scan_request& r) {
  return usage_error_message([&] { index_options_of(r); });
}

} // namespace

TEST_CASE("index rules pass the options through with their defaults", "[index_rules]") {
  auto r = request();
  r.exclude = {"*.txt"};
  r.quiet = true;
  const auto o = index_options_of(r);
  CHECK(o.dir == "/data");
  CHECK(o.out == "/tmp/i.json");
  CHECK(o.threads == 8);
  CHECK(o.stall_timeout_s == 60);
  CHECK(o.symlinks == symlink_policy::skip);
  CHECK(o.exclude == std::vector<std::string>{"*.txt"});
  CHECK_FALSE(o.progress);
  r.symlinks = "follow";
  r.stall_timeout = "0";
  CHECK(index_options_of(r).symlinks == symlink_policy::follow);
  CHECK(index_options_of(r).stall_timeout_s == 0);
}

TEST_CASE("index rules refuse a missing DIR, an unknown symlink policy and bad counts",
          "[index_rules]") {
  auto r = request();
  r.dir.clear();
  CHECK_THAT(refusal(r), Contains("index: DIR required") && Contains("index stats"));
  r = request();
  r.symlinks = "resolve";
  CHECK_THAT(refusal(r), Contains("--symlinks: invalid value 'resolve'. valid: skip, follow"));
  r = request();
  r.threads = 0;
  CHECK_THAT(refusal(r), Contains("--threads: 0 is out of range. valid: 1 to 256"));
  r.threads = 257;
  CHECK_THAT(refusal(r), Contains("--threads: 257"));
  r = request();
  r.stall_timeout = "200ms";
  CHECK_THAT(refusal(r), Contains("--stall-timeout: '200ms' is too short"));
}
