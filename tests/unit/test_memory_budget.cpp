#include <cstdint>

#include <catch2/catch.hpp>

#include "core/error.hpp"
#include "core/memory_budget.hpp"

using namespace dlsize;

TEST_CASE("a product of options saturates instead of wrapping around", "[core][limits]") {
  CHECK(core::saturating_mul(4096, 64ull << 20) == 256ull << 30);
  CHECK(core::saturating_mul(1ull << 32, 1ull << 32) == UINT64_MAX);
  CHECK(core::saturating_mul(0, UINT64_MAX) == 0);
}

TEST_CASE("memory asked for beyond the host's RAM is a usage error naming what and how much",
          "[core][limits]") {
  const std::uint64_t ram = 1ull << 30;
  CHECK_NOTHROW(core::check_memory_budget(ram, "--x", "less", ram));
  CHECK_THROWS_AS(core::check_memory_budget(ram + 1, "--x", "less", ram), usage_error);
  CHECK_THROWS_WITH(core::check_memory_budget(2 * ram, "--x 2 × --y 3", "fewer", ram),
                    Catch::Contains("--x 2 × --y 3 need 2147483648 bytes (2.00 GiB)") &&
                        Catch::Contains("RAM (1073741824 bytes") &&
                        Catch::Contains("valid: fewer"));
  CHECK_THROWS_WITH(core::check_memory_budget(UINT64_MAX, "--x", "less", ram),
                    Catch::Contains("more than 2^64 bytes"));
}
