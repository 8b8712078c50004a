#include <catch2/catch.hpp>

#include "core/typed_value.hpp"

using dlsize::core::typed_value;

TEST_CASE("an option's text is typed as JSON, integers exactly up to 2^64 - 1", "[typed_value]") {
  CHECK(typed_value("true") == true);
  CHECK(typed_value("false") == false);
  CHECK(typed_value("16").is_number_unsigned());
  CHECK(typed_value("18446744073709551615").get<std::uint64_t>() == UINT64_MAX);
  CHECK(typed_value("-3").get<std::int64_t>() == -3);
  CHECK(typed_value("0.5").get<double>() == 0.5);
  CHECK(typed_value("1MiB") == "1MiB");
  CHECK(typed_value("") == "");
}

TEST_CASE("an integer out of range stays text, never clamped", "[typed_value]") {
  CHECK(typed_value("18446744073709551616") == "18446744073709551616");
  CHECK(typed_value("-9223372036854775809") == "-9223372036854775809");
}
