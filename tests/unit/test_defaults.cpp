// Unit tests for src/core/defaults.hpp: a default written as text is the same value as its
// number, and the values are the documented ones (docs/options.md).
#include <catch2/catch.hpp>

#include "core/defaults.hpp"
#include "core/units.hpp"

using namespace dlsize;

TEST_CASE("the text defaults parse to their numbers", "[defaults]") {
  CHECK(units::parse_size(core::defaults::request_size_text, "--request-size") ==
        core::defaults::request_size);
  CHECK(units::parse_duration(core::defaults::stall_timeout_text, "--stall-timeout") ==
        core::defaults::stall_timeout_s);
}

TEST_CASE("the defaults are the documented ones", "[defaults]") {
  CHECK(core::defaults::queue_depth == 16);
  CHECK(core::defaults::request_size == 1024 * 1024);
  CHECK(core::defaults::stall_timeout_s == 60);
  CHECK(core::defaults::au_threshold == 0.9);
}
