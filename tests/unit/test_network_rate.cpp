// Unit tests for units::parse_rate: links quoted in bits per second, or bytes.
#include <catch2/catch.hpp>

#include "test_support.hpp"

#include "core/units.hpp"

using Catch::Matchers::Contains;
using dlsize::units::parse_rate;

TEST_CASE("parse_rate reads bit rates as decimal bits over 8", "[units][rate]") {
  CHECK(parse_rate("100Gb/s", "--x") == Approx(12.5e9));
  CHECK(parse_rate("200Gbit/s", "--x") == Approx(25e9));
  CHECK(parse_rate("400Mb", "--x") == Approx(50e6));
  CHECK(parse_rate("1.6Tb/s", "--x") == Approx(200e9));
}

TEST_CASE("parse_rate reads byte rates as parse_rate does", "[units][rate]") {
  CHECK(parse_rate("12.1GB/s", "--x") == Approx(12.1e9));
  CHECK(parse_rate("1GiB/s", "--x") == Approx(1024.0 * 1024 * 1024));
}

TEST_CASE("parse_rate names the option and both forms on bad input", "[units][rate]") {
  for (const char* bad : {"fast", "0Gb/s", "-1GB/s", "100Xb/s"})
    CHECK_THAT(dlsize::test::usage_error_message([&] { parse_rate(bad, "--inter"); }),
               Contains("--inter") && Contains("Gb/s") && Contains("MB/s"));
}
