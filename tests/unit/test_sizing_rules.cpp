#include <catch2/catch.hpp>

#include "analysis/sizing_rules.hpp"
#include "test_support.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using namespace dlsize::analysis;
using namespace dlsize::test;

namespace {

template <class Change> std::string refusal(Change change) {
  size_options o;
  o.out = "sizing";
  change(o);
  return usage_error_message([&] { sizing_request_of(o); });
}

} // namespace

TEST_CASE("sizing rules resolve size's defaults and given rates", "[sizing_rules]") {
  size_options o;
  o.out = "sizing";
  auto req = sizing_request_of(o);
  CHECK(req.headroom == 1.2);
  CHECK(req.nic_efficiency == Approx(0.8));
  CHECK(req.nic_bandwidth == 0);
  CHECK(req.cache_model == cache_model_kind::automatic);
  CHECK(req.cache_bytes < 0);
  o.nic_bandwidth = "100Gb/s";
  o.nic_efficiency = "90%";
  o.clients = 4;
  o.client_ram = "1GiB";
  o.cache_model = "never-evict";
  o.targets = {8};
  req = sizing_request_of(o);
  CHECK(req.nic_bandwidth == Approx(100e9 / 8));
  CHECK(req.nic_efficiency == Approx(0.9));
  CHECK(req.clients == 4);
  CHECK(req.cache_bytes == Approx(4.0 * (1 << 30)));
  CHECK(req.cache_model == cache_model_kind::never_evict);
  CHECK(req.targets == std::vector<double>{8});
}

TEST_CASE("sizing rules refuse an empty --out prefix", "[sizing_rules]") {
  CHECK_THAT(usage_error_message([] { check_out_prefix(""); }),
             StartsWith("--out: an empty prefix. valid:"));
  CHECK_NOTHROW(check_out_prefix("results/sizing"));
}

TEST_CASE("sizing rules refuse values out of range, naming the option", "[sizing_rules]") {
  CHECK_THAT(refusal([](auto& o) { o.headroom = 0.9; }),
             StartsWith("--headroom: 0.9 is not valid. valid: a factor of 1 or more"));
  CHECK(refusal([](auto& o) { o.clients = 0; }) == "--clients: must be at least 1");
  CHECK_THAT(refusal([](auto& o) { o.cache_model = "fifo"; }),
             StartsWith("--cache-model: 'fifo' is not valid. valid: auto"));
  CHECK_THAT(refusal([](auto& o) { o.cache_bytes = "1GiB"; }),
             StartsWith("--cache-bytes 1GiB: renamed. valid: --client-ram SIZE"));
  CHECK_THAT(refusal([](auto& o) { o.nic_bandwidth = "fast"; }), Contains("--nic-bandwidth"));
  CHECK_THAT(refusal([](auto& o) { o.client_ram = "lots"; }), Contains("--client-ram"));
}
