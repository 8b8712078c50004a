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

// Splits "12.5GB/s" into 12.5 and "GB" (the "/s" may be omitted); false without a number
// above 0 in front.
bool split_rate(std::string_view text, double& value, std::string_view& unit) {
  std::string_view s = trim(text);
  if (s.size() >= 2 && s.substr(s.size() - 2) == "/s")
    s.remove_suffix(2);
  return split_number(s, value, unit) && value > 0;
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

double parse_rate(std::string_view text, std::string_view option) {
  double value = 0;
  std::string_view rest;
  if (split_rate(text, value, rest)) {
    for (const auto& suf : kSuffixes) {
      if (rest == suf.text)
        return value * suf.factor;
    }
  }
  throw usage_error(
      fmt::format("invalid rate for {}: '{}'. valid: a positive size per second such as '300MB/s', "
                  "'1.5GiB/s' or '250M'",
                  option, text));
}

double parse_network_rate(std::string_view text, std::string_view option) {
  double value = 0;
  std::string_view rest;
  constexpr std::array<suffix, 4> kBits{{{"k", 1e3}, {"M", 1e6}, {"G", 1e9}, {"T", 1e12}}};
  if (split_rate(text, value, rest))
    for (const auto& b : kBits)
      if (rest.substr(0, b.text.size()) == b.text &&
          (rest.substr(b.text.size()) == "b" || rest.substr(b.text.size()) == "bit"))
        return value * b.factor / 8;
  try {
    return parse_rate(text, option);
  } catch (const usage_error&) {
    throw usage_error(
        fmt::format("invalid rate for {}: '{}'. valid: a bit rate such as "
                    "'100Gb/s' or '200Gbit/s', or bytes per second such as '12.1GB/s'",
                    option, text));
  }
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
  if (split_number(s, value, rest) && rest.empty() && value > 0 && value <= 1)
    return value;
  throw usage_error(fmt::format(
      "{}: '{}' is not valid. valid: a number above 0 and at most 1, such as 0.9", option, text));
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

} // namespace dlsize::units
