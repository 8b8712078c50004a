#pragma once
// The type and range of a value a user gives: a command-line option, a run-config key, a field of
// a manifest or report. One rule checks it wherever it comes from: the JSON type must match (no
// string for a number, no number for a path), counts are never negative, NaN and inf are never a
// number, and the range is checked before the value sizes anything.
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json_fwd.hpp>

namespace dlsize::core {

enum class value_kind {
  flag,     // true or false
  count,    // a non-negative integer in [min, max]
  real,     // a finite number in [lo, hi] (lo excluded when lo_open)
  fraction, // a finite number or a percent ("90%") in [lo, hi]
  size,     // bytes with an optional unit (units::parse_size), in [lo, hi]
  duration, // seconds with an optional unit (units::parse_duration), in [lo, hi]
  rate,     // bytes per second (units::parse_rate), in [lo, hi]
  text,     // a string of at most 4096 bytes; what it may say is the option's own rule
  path,     // a file or folder name: not empty, each name up to 255 bytes, 4095 bytes in all
};

struct value_rule {
  value_kind kind = value_kind::text;
  std::uint64_t min = 0, max = 0; // count
  double lo = 0, hi = 0;          // real, fraction, size, duration, rate
  bool lo_open = false;
  bool ram_multiple = false; // size: "5x-ram" is also valid (its bytes are known later)
};

constexpr value_rule flag_rule() {
  return {value_kind::flag};
}
constexpr value_rule count_rule(std::uint64_t min, std::uint64_t max) {
  return {value_kind::count, min, max};
}
constexpr value_rule real_rule(double lo, double hi, bool lo_open = false) {
  return {value_kind::real, 0, 0, lo, hi, lo_open};
}
constexpr value_rule fraction_rule(bool zero_valid) {
  return {value_kind::fraction, 0, 0, 0, 1, !zero_valid};
}
constexpr value_rule size_rule(double lo, double hi, bool ram_multiple = false) {
  return {value_kind::size, 0, 0, lo, hi, false, ram_multiple};
}
constexpr value_rule duration_rule(double lo_s, double hi_s) {
  return {value_kind::duration, 0, 0, lo_s, hi_s};
}
constexpr value_rule rate_rule(double lo, double hi) {
  return {value_kind::rate, 0, 0, lo, hi};
}
constexpr value_rule text_rule() {
  return {value_kind::text};
}
constexpr value_rule path_rule() {
  return {value_kind::path};
}

// What the rule accepts, in words: "an integer from 1 to 256".
std::string describe(const value_rule& r);

// Why text (as typed on a command line) breaks the rule, as "'-1' is not valid. valid: an
// integer from 0 to 1048576"; empty when it is valid.
std::string text_problem(const value_rule& r, std::string_view text);

// Why a JSON value breaks the rule (its type first, then its range); empty when it is valid.
std::string json_problem(const value_rule& r, const nlohmann::json& v);

// Throws usage_error "NAME: PROBLEM" (name: the option or key the user gave) when text or v
// breaks the rule.
void check_text(const value_rule& r, std::string_view text, std::string_view name);
void check_json(const value_rule& r, const nlohmann::json& v, std::string_view name);

} // namespace dlsize::core
