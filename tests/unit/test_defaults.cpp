// Unit tests for src/core/defaults.hpp: a default written as text is the same value as its
// number, an enum option's text default names its enum's default, and the values are the
// documented ones (docs/options.md).
#include <string>

#include <catch2/catch.hpp>

#include "accel/cuda_accelerator.hpp"
#include "core/defaults.hpp"
#include "core/units.hpp"
#include "io/engine.hpp"
#include "report/rules_edition.hpp"

using namespace dlsize;

TEST_CASE("the text defaults parse to their numbers", "[defaults]") {
  CHECK(units::parse_size(core::defaults::request_size_text, "--request-size") ==
        core::defaults::request_size);
  CHECK(units::parse_duration(core::defaults::stall_timeout_text, "--stall-timeout") ==
        core::defaults::stall_timeout_s);
}

TEST_CASE("the text defaults of enum options name their enums' defaults", "[defaults]") {
  CHECK(io::parse_cache_mode(core::defaults::cache_text) == io::engine_options{}.cache);
  CHECK(report::parse_rules_edition(core::defaults::rules_text, "--rules") ==
        report::kDefaultRules);
  CHECK(accel::parse_precision(core::defaults::precision_text, "--precision") ==
        accel::cuda_options{}.precision);
}

TEST_CASE("the defaults are the documented ones", "[defaults]") {
  CHECK(core::defaults::queue_depth == 16);
  CHECK(core::defaults::request_size == 1024 * 1024);
  CHECK(core::defaults::stall_timeout_s == 60);
  CHECK(core::defaults::au_threshold == 0.9);
  CHECK(std::string(core::defaults::cache_text) == "direct");
  CHECK(std::string(core::defaults::rules_text) == "v3");
  CHECK(std::string(core::defaults::precision_text) == "fp16");
}
