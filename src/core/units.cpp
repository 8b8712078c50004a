#include "core/units.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <utility>

#include <fmt/format.h>

#include "core/error.hpp"

namespace dlsize::units {
namespace {

struct suffix {
  std::string_view text;
  double factor;
};

constexpr double kKi = 1024.0;
constexpr std::array<suffix, 21> kSuffixes{{
    {"KiB", kKi},
    {"MiB", kKi* kKi},
    {"GiB", kKi* kKi* kKi},
    {"TiB", kKi* kKi* kKi* kKi},
    {"PiB", kKi* kKi* kKi* kKi* kKi},
    {"kB", 1e3},
    {"KB", 1e3},
    {"MB", 1e6},
    {"GB", 1e9},
    {"TB", 1e12},
    {"PB", 1e15},
    {"k", kKi},
    {"K", kKi},
    {"M", kKi* kKi},
    {"G", kKi* kKi* kKi},
    {"T", kKi* kKi* kKi* kKi},
    {"Ki", kKi},
    {"Mi", kKi* kKi},
    {"Gi", kKi* kKi* kKi},
    {"B", 1.0},
    {"", 1.0},
}};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
    s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t'))
    s.remove_suffix(1);
  return s;
}

// Splits "12.5GiB" into 12.5 and "GiB"; false when there is no leading number.
bool split_number(std::string_view s, double& value, std::string_view& rest) {
  const char* end = s.data() + s.size();
  auto [ptr, ec] = std::from_chars(s.data(), end, value);
  if (ec != std::errc() || !std::isfinite(value))
    return false;
  rest = trim(std::string_view(ptr, static_cast<std::size_t>(end - ptr)));
  return true;
}

[[noreturn]] void bad_size(std::string_view text, std::string_view option) {
  throw usage_error(fmt::format(
      "invalid size for {}: '{}'. valid: a number with an optional unit (B, kB, MB, GB, TB, "
      "KiB, MiB, GiB, TiB, or k/M/G/T as binary), or a multiple of this host's RAM such as "
      "'5x-ram'",
      option, text));
}

// Rounds to whole bytes; sizes of 2^64 bytes and more are refused, not wrapped.
std::uint64_t to_bytes(double bytes, std::string_view text, std::string_view option) {
  if (!(bytes < 18446744073709549568.0))
    bad_size(text, option);
  return static_cast<std::uint64_t>(bytes + 0.5);
}

} // namespace

std::uint64_t parse_size(std::string_view text, std::string_view option, std::uint64_t ram_bytes) {
  std::string_view s = trim(text);
  double value = 0;
  std::string_view rest;
  if (!split_number(s, value, rest) || value < 0)
    bad_size(text, option);
  if (rest == "x-ram" || rest == "xram" || rest == "x-RAM") {
    if (ram_bytes == 0)
      throw usage_error(
          fmt::format("{}: '{}' needs the host's RAM size, which is unknown", option, text));
    return to_bytes(value * static_cast<double>(ram_bytes), text, option);
  }
  for (const auto& suf : kSuffixes) {
    if (rest == suf.text) {
      return to_bytes(value * suf.factor, text, option);
    }
  }
  bad_size(text, option);
}

namespace {

// Decimal prefixes of bit rates (network figures are always decimal): "25Gb/s" is 25e9 bits/s.
double bit_prefix(std::string_view p) {
  if (p.empty())
    return 1;
  if (p == "k" || p == "K")
    return 1e3;
  if (p == "M")
    return 1e6;
  if (p == "G")
    return 1e9;
  if (p == "T")
    return 1e12;
  return 0;
}

// A bit rate's unit after its number: PREFIX then "b/s", "bit/s", "bps" or "bE" (the "GbE" of a
// NIC's line rate); bytes per second, or 0 when rest is no bit unit.
double bit_rate_factor(std::string_view rest) {
  for (std::string_view unit : {"bit/s", "b/s", "bps", "bE", "bit", "b"})
    if (rest.size() > unit.size() && rest.substr(rest.size() - unit.size()) == unit)
      return bit_prefix(rest.substr(0, rest.size() - unit.size())) / 8;
    else if (rest == unit)
      return 1.0 / 8;
  return 0;
}

} // namespace

double parse_rate(std::string_view text, std::string_view option) {
  std::string_view s = trim(text);
  double value = 0;
  std::string_view rest;
  if (split_number(s, value, rest) && value > 0) {
    if (const double bits = bit_rate_factor(rest); bits > 0)
      return value * bits;
    std::string_view unit = rest;
    if (unit.size() >= 2 && unit.substr(unit.size() - 2) == "/s")
      unit.remove_suffix(2);
    // Bytes need their B: a bare "25G" has been read as 25 GiB/s where a NIC's 25 Gb/s was meant.
    const bool bare_prefix = !unit.empty() && unit.back() != 'B';
    if (bare_prefix && bit_prefix(unit.substr(0, 1)) > 0)
      throw usage_error(fmt::format(
          "invalid rate for {}: '{}' has no unit. valid: bytes such as '{}{}B/s' (decimal), "
          "'{}{}iB/s' (binary), or bits such as '{}{}b/s', '{}{}bit/s' or '{}{}bE'",
          option, text, value, unit.substr(0, 1), value, unit.substr(0, 1), value,
          unit.substr(0, 1), value, unit.substr(0, 1), value, unit.substr(0, 1)));
    for (const auto& suf : kSuffixes)
      if (unit == suf.text && (suf.text.empty() || suf.text.back() == 'B'))
        return value * suf.factor;
  }
  throw usage_error(
      fmt::format("invalid rate for {}: '{}'. valid: a positive rate in bytes such as '300MB/s' "
                  "or '1.5GiB/s' (B, kB, MB, GB, TB, KiB, MiB, GiB, TiB), or in bits such as "
                  "'25Gb/s', '25Gbit/s' or '400GbE' (decimal, 8 bits a byte)",
                  option, text));
}

double parse_duration(std::string_view text, std::string_view option) {
  std::string_view s = trim(text);
  double value = 0;
  std::string_view rest;
  if (split_number(s, value, rest) && value >= 0) {
    if (rest.empty() || rest == "s")
      return value;
    if (rest == "ms")
      return value / 1e3;
    if (rest == "us")
      return value / 1e6;
    if (rest == "m" || rest == "min")
      return value * 60;
    if (rest == "h")
      return value * 3600;
  }
  throw usage_error(fmt::format(
      "invalid duration for {}: '{}'. valid: seconds, or a number with us, ms, s, m or h", option,
      text));
}

double parse_fraction(std::string_view text, std::string_view option) {
  std::string_view s = trim(text);
  double value = 0;
  std::string_view rest;
  if (split_number(s, value, rest)) {
    if (rest == "%") {
      value /= 100;
      rest = {};
    }
    if (rest.empty() && value > 0 && value <= 1)
      return value;
  }
  throw usage_error(fmt::format("{}: '{}' is not valid. valid: a number above 0 and at most 1, "
                                "such as 0.9, or a percent such as 90%",
                                option, text));
}

namespace {

std::string format_scaled(double bytes, double base, const std::array<const char*, 6>& names) {
  std::size_t i = 0;
  while (bytes >= base && i + 1 < names.size()) {
    bytes /= base;
    ++i;
  }
  return fmt::format("{:.{}f} {}", bytes, i == 0 ? 0 : 2, names[i]);
}

} // namespace

std::string format_bytes_binary(double bytes) {
  return format_scaled(bytes, 1024.0, {"B", "KiB", "MiB", "GiB", "TiB", "PiB"});
}

std::string format_bytes_decimal(double bytes) {
  return format_scaled(bytes, 1000.0, {"B", "kB", "MB", "GB", "TB", "PB"});
}

std::string format_rate_both(double bytes_per_s) {
  return fmt::format("{:.1f} MB/s ({:.1f} MiB/s)", bytes_per_s / 1e6,
                     bytes_per_s / (1024.0 * 1024.0));
}

std::string format_plain(double v) {
  return std::isfinite(v) && std::fabs(v) >= 1e4 ? fmt::format("{:.0f}", v)
                                                 : fmt::format("{:.4g}", v);
}

} // namespace dlsize::units
