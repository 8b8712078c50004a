// Unit tests for src/core/units.hpp: sizes, rates and durations as people write them.
#include <cstdint>
#include <string>
#include <string_view>

#include <catch2/catch.hpp>

#include "test_support.hpp"

#include "core/error.hpp"
#include "core/units.hpp"

namespace {

using dlsize::units::parse_duration;
using dlsize::units::parse_rate;
using dlsize::units::parse_size;

constexpr std::uint64_t kKiB = 1024ull;
constexpr std::uint64_t kMiB = kKiB * 1024ull;
constexpr std::uint64_t kGiB = kMiB * 1024ull;
constexpr std::uint64_t kTiB = kGiB * 1024ull;
constexpr std::uint64_t kPiB = kTiB * 1024ull;

using dlsize::test::usage_error_message;

} // namespace

TEST_CASE("parse_size reads a plain number or a B suffix as a byte count", "[units][size]") {
  CHECK(parse_size("0", "--size") == 0);
  CHECK(parse_size("4096", "--size") == 4096);
  CHECK(parse_size("4096B", "--size") == 4096);
  CHECK(parse_size("  4096  ", "--size") == 4096);
  CHECK(parse_size("12 GiB", "--size") == 12 * kGiB);
}

TEST_CASE("parse_size treats kB, MB, GB, TB and PB as powers of 1000", "[units][size]") {
  CHECK(parse_size("1kB", "--size") == 1000ull);
  CHECK(parse_size("1KB", "--size") == 1000ull);
  CHECK(parse_size("500MB", "--size") == 500'000'000ull);
  CHECK(parse_size("500GB", "--size") == 500'000'000'000ull);
  CHECK(parse_size("3TB", "--size") == 3'000'000'000'000ull);
  CHECK(parse_size("2PB", "--size") == 2'000'000'000'000'000ull);
}

TEST_CASE("parse_size treats KiB, MiB, GiB, TiB and PiB as powers of 1024", "[units][size]") {
  CHECK(parse_size("1KiB", "--size") == kKiB);
  CHECK(parse_size("3MiB", "--size") == 3 * kMiB);
  CHECK(parse_size("7GiB", "--size") == 7 * kGiB);
  CHECK(parse_size("1.5TiB", "--size") == 3 * kTiB / 2);
  CHECK(parse_size("2PiB", "--size") == 2 * kPiB);
  CHECK(parse_size("0.5KiB", "--size") == 512);
}

TEST_CASE("parse_size treats bare k, K, M, G and T as binary, as fio does", "[units][size]") {
  CHECK(parse_size("4k", "--bs") == 4 * kKiB);
  CHECK(parse_size("4K", "--bs") == 4 * kKiB);
  CHECK(parse_size("1M", "--bs") == kMiB);
  CHECK(parse_size("2G", "--bs") == 2 * kGiB);
  CHECK(parse_size("1T", "--bs") == kTiB);
  // Binary and decimal forms of the "same" unit differ.
  CHECK(parse_size("1M", "--bs") != parse_size("1MB", "--bs"));
}

TEST_CASE("parse_size multiplies the host's RAM for an Nx-ram size", "[units][size]") {
  const std::uint64_t ram = 16 * kGiB;
  CHECK(parse_size("5x-ram", "--size", ram) == 80 * kGiB);
  CHECK(parse_size("1x-ram", "--size", ram) == ram);
  CHECK(parse_size("0.5x-ram", "--size", ram) == 8 * kGiB);
  CHECK(parse_size("2xram", "--size", ram) == 32 * kGiB);
}

TEST_CASE("parse_size rejects Nx-ram with a usage_error naming the option when RAM is unknown",
          "[units][size]") {
  const std::string msg = usage_error_message([] { (void)parse_size("5x-ram", "--size", 0); });
  CHECK_THAT(msg, Catch::Matchers::Contains("--size"));
  CHECK_THAT(msg, Catch::Matchers::Contains("5x-ram"));
}

TEST_CASE("parse_size rejects garbage, unknown units and negative sizes with a usage_error "
          "naming the option",
          "[units][size]") {
  const char* bad[] = {"",      "   ",   "abc", "GiB", "12XB",    "12 bytes", "-5",
                       "-1GiB", "1..5G", "inf", "nan", "5x-ramm", "0x10",     "1e30"};
  for (const char* text : bad) {
    INFO("input: '" << text << "'");
    const std::string msg =
        usage_error_message([&] { (void)parse_size(text, "--size", 16 * kGiB); });
    CHECK_THAT(msg, Catch::Matchers::StartsWith("invalid size for --size"));
  }
  // The option name in the message is the one the caller passed.
  const std::string msg = usage_error_message([] { (void)parse_size("lots", "--dataset-size"); });
  CHECK_THAT(msg,
             Catch::Matchers::Contains("--dataset-size") && Catch::Matchers::Contains("'lots'"));
}

TEST_CASE("parse_rate reads a size per second in bytes per second", "[units][rate]") {
  CHECK(parse_rate("300MB/s", "--max-read-rate") == Approx(3e8).epsilon(1e-12));
  CHECK(parse_rate("1.5GiB/s", "--max-read-rate") ==
        Approx(1.5 * static_cast<double>(kGiB)).epsilon(1e-12));
  CHECK(parse_rate("250MiB/s", "--max-read-rate") ==
        Approx(250.0 * static_cast<double>(kMiB)).epsilon(1e-12));
  CHECK(parse_rate("250MiB", "--max-read-rate") ==
        Approx(250.0 * static_cast<double>(kMiB)).epsilon(1e-12));
  CHECK(parse_rate("1000", "--max-read-rate") == Approx(1000.0).epsilon(1e-12));
  CHECK(parse_rate("2GB/s", "--max-read-rate") == Approx(2e9).epsilon(1e-12));
  CHECK(parse_rate(" 10 kB/s ", "--max-read-rate") == Approx(1e4).epsilon(1e-12));
}

TEST_CASE("parse_rate rejects zero, negative and malformed rates with a usage_error naming the "
          "option",
          "[units][rate]") {
  const char* bad[] = {"", "0", "0MB/s", "-5MB/s", "fast", "/s", "5MB/h", "5XB/s", "inf"};
  for (const char* text : bad) {
    INFO("input: '" << text << "'");
    const std::string msg = usage_error_message([&] { (void)parse_rate(text, "--max-read-rate"); });
    CHECK_THAT(msg, Catch::Matchers::StartsWith("invalid rate for --max-read-rate"));
  }
}

TEST_CASE("parse_rate reads network figures in bits as bytes per second", "[units][rate]") {
  CHECK(parse_rate("25Gb/s", "--nic-bandwidth") == Approx(25e9 / 8).epsilon(1e-12));
  CHECK(parse_rate("25Gbit/s", "--nic-bandwidth") == Approx(25e9 / 8).epsilon(1e-12));
  CHECK(parse_rate("25Gbps", "--nic-bandwidth") == Approx(25e9 / 8).epsilon(1e-12));
  CHECK(parse_rate("400GbE", "--nic-bandwidth") == Approx(50e9).epsilon(1e-12));
  CHECK(parse_rate("100Mb/s", "--nic-bandwidth") == Approx(12.5e6).epsilon(1e-12));
}

TEST_CASE("parse_rate refuses a bare prefix, which could be bytes or bits, and names both",
          "[units][rate]") {
  for (const char* text : {"25G", "250M", "4k", "1T/s"}) {
    INFO("input: '" << text << "'");
    const std::string msg = usage_error_message([&] { (void)parse_rate(text, "--nic-bandwidth"); });
    CHECK_THAT(msg, Catch::Matchers::Contains("has no unit"));
    CHECK_THAT(msg, Catch::Matchers::Contains("B/s"));
    CHECK_THAT(msg, Catch::Matchers::Contains("b/s"));
  }
}

TEST_CASE("parse_fraction accepts a percent wherever it accepts a fraction", "[units]") {
  CHECK(dlsize::units::parse_fraction("90%", "--au-threshold") == Approx(0.9));
  CHECK(dlsize::units::parse_fraction("5 %", "--au-threshold") == Approx(0.05));
  CHECK_THROWS(dlsize::units::parse_fraction("150%", "--au-threshold"));
}

TEST_CASE("parse_duration reads seconds, ms, m, min and h as seconds", "[units][duration]") {
  CHECK(parse_duration("90", "--duration") == Approx(90.0));
  CHECK(parse_duration("90s", "--duration") == Approx(90.0));
  CHECK(parse_duration("0", "--duration") == Approx(0.0));
  CHECK(parse_duration("5m", "--duration") == Approx(300.0));
  CHECK(parse_duration("2min", "--duration") == Approx(120.0));
  CHECK(parse_duration("1h", "--duration") == Approx(3600.0));
  CHECK(parse_duration("1.5h", "--duration") == Approx(5400.0));
  CHECK(parse_duration("250ms", "--duration") == Approx(0.25));
  CHECK(parse_duration(" 2.5 s ", "--duration") == Approx(2.5));
}

TEST_CASE("parse_duration rejects negative, unknown-unit and malformed durations with a "
          "usage_error naming the option",
          "[units][duration]") {
  const char* bad[] = {"", "-1", "-5m", "5d", "abc", "s", "10 sec", "1h30m"};
  for (const char* text : bad) {
    INFO("input: '" << text << "'");
    const std::string msg = usage_error_message([&] { (void)parse_duration(text, "--warmup"); });
    CHECK_THAT(msg, Catch::Matchers::StartsWith("invalid duration for --warmup"));
  }
}

TEST_CASE("parse_size refuses sizes of 2^64 bytes or more instead of wrapping") {
  CHECK(dlsize::units::parse_size("10000PB", "--size") == 10000000000000000000ull);
  CHECK_THROWS_AS(dlsize::units::parse_size("20000PB", "--size"), dlsize::usage_error);
  CHECK_THROWS_AS(dlsize::units::parse_size("2e19", "--size"), dlsize::usage_error);
  CHECK_THROWS_AS(dlsize::units::parse_size("8x-ram", "--size", 4ull << 60), dlsize::usage_error);
  CHECK(dlsize::units::parse_size("9e18", "--size") == 9000000000000000000ull);
}

TEST_CASE("parse_fraction accepts numbers above 0 up to 1 and names the option otherwise",
          "[units]") {
  CHECK(dlsize::units::parse_fraction("0.9", "--au-threshold") == Approx(0.9));
  CHECK(dlsize::units::parse_fraction(" 1 ", "--au-threshold") == Approx(1.0));
  for (const char* bad : {"0", "1.5", "-0.2", "high", "0.9x", ""}) {
    INFO(bad);
    CHECK_THAT(dlsize::test::usage_error_message(
                   [&] { (void)dlsize::units::parse_fraction(bad, "--au-threshold"); }),
               Catch::Matchers::Contains("--au-threshold"));
  }
}

// Link rates as networks quote them: bits per second, decimal.
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
    CHECK_THAT(usage_error_message([&] { parse_rate(bad, "--inter"); }),
               Catch::Contains("--inter") && Catch::Contains("Gb/s") && Catch::Contains("MB/s"));
}
