#include "core/value_rule.hpp"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/units.hpp"

namespace dlsize::core {
namespace {

constexpr std::size_t kMaxText = 4096;
constexpr std::size_t kMaxName = 255; // NAME_MAX on Linux file systems
constexpr std::size_t kMaxPath = 4095;
constexpr std::size_t kMaxS3Key = 1024; // S3's limit on a key, in bytes

std::string duration_words(double s) {
  if (s >= 86400 && std::fmod(s, 86400) == 0)
    return fmt::format("{} days", units::format_plain(s / 86400));
  if (s > 0 && s < 1)
    return fmt::format("{}ms", units::format_plain(s * 1e3));
  return fmt::format("{}s", units::format_plain(s));
}

std::string bounds(const value_rule& r, const std::string& lo, const std::string& hi) {
  return r.lo_open ? fmt::format("above {} and at most {}", lo, hi)
                   : fmt::format("from {} to {}", lo, hi);
}

// Stands for the option in a unit parser's message, which is then said without it (the caller
// names the option or key).
constexpr std::string_view kMarker = "\x1f";

std::string without_marker(std::string m) {
  for (const std::string& cut : {std::string(" for ") + std::string(kMarker),
                                 std::string(kMarker) + ": ", std::string(kMarker)})
    for (std::size_t at = m.find(cut); at != std::string::npos; at = m.find(cut))
      m.erase(at, cut.size());
  return m;
}

// The value of a number, percent or unit the rule's kind takes; false when the text is not one,
// with the unit parser's reason in why (empty for a plain number).
bool value_of(const value_rule& r, std::string_view text, double& v, std::string& why) {
  if (r.kind == value_kind::size && !r.ram_multiple && text.find("ram") != std::string_view::npos)
    return false; // this option's bytes are not a multiple of RAM
  try {
    switch (r.kind) {
    case value_kind::size:
      // A multiple of RAM is checked for its form; its bytes are known only later.
      v = static_cast<double>(units::parse_size(text, kMarker, r.ram_multiple ? 1 : 0));
      if (r.ram_multiple && text.find("ram") != std::string_view::npos)
        v = r.lo;
      return true;
    case value_kind::duration:
      v = units::parse_duration(text, kMarker);
      return true;
    case value_kind::rate:
      v = units::parse_rate(text, kMarker);
      return true;
    default:
      break;
    }
  } catch (const usage_error& e) {
    why = without_marker(e.what());
    return false;
  }
  std::string_view s = text;
  const bool percent = r.kind == value_kind::fraction && !s.empty() && s.back() == '%';
  if (percent)
    s.remove_suffix(1);
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (s.empty() || ec != std::errc() || end != s.data() + s.size() || !std::isfinite(v))
    return false;
  if (percent)
    v /= 100;
  return true;
}

std::string count_problem(const value_rule& r, std::string_view text) {
  const std::string t(text);
  if (t.empty() || t.find_first_not_of("0123456789") != std::string::npos)
    return fmt::format("'{}' is not valid. valid: {}", t, describe(r));
  errno = 0;
  const unsigned long long n = std::strtoull(t.c_str(), nullptr, 10);
  if (errno == ERANGE || n < r.min || n > r.max)
    return fmt::format("{} is out of range. valid: {}", t, describe(r));
  return "";
}

// An s3:// URL names a bucket (at most 63 bytes) and a key prefix under S3's rule: a key of at
// most 1024 bytes, with no limit on a name between slashes (the bucket's own rules are checked
// where the URL is parsed, s3::parse_location).
std::string s3_url_problem(std::string_view text) {
  const std::size_t most = 5 + 63 + 1 + kMaxS3Key;
  if (text.size() > most)
    return fmt::format("an s3:// URL of {} bytes. valid: {}", text.size(), describe(path_rule()));
  return "";
}

std::string path_problem(std::string_view text) {
  if (text.rfind("s3://", 0) == 0)
    return s3_url_problem(text);
  if (text.empty())
    return fmt::format("an empty file name. valid: {}", describe(path_rule()));
  if (text.size() > kMaxPath)
    return fmt::format("a path of {} bytes. valid: {}", text.size(), describe(path_rule()));
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t slash = std::min(text.find('/', start), text.size());
    if (slash - start > kMaxName)
      return fmt::format("the name '{}...' is {} bytes long. valid: {}", text.substr(start, 16),
                         slash - start, describe(path_rule()));
    start = slash + 1;
  }
  return "";
}

const char* json_type_words(const nlohmann::json& v) {
  if (v.is_string())
    return "text";
  if (v.is_boolean())
    return "a boolean";
  if (v.is_number())
    return "a number";
  if (v.is_array())
    return "an array";
  if (v.is_object())
    return "an object";
  return "null";
}

} // namespace

std::string describe(const value_rule& r) {
  using units::format_plain;
  switch (r.kind) {
  case value_kind::flag:
    return "true or false";
  case value_kind::count:
    return fmt::format("an integer from {} to {}", r.min, r.max);
  case value_kind::real:
    return "a number " + bounds(r, format_plain(r.lo), format_plain(r.hi));
  case value_kind::fraction:
    return fmt::format("a fraction {} (or a percent such as 80%)",
                       bounds(r, format_plain(r.lo), format_plain(r.hi)));
  case value_kind::size:
    return fmt::format(
        "a size {}{}",
        bounds(r, units::format_bytes_binary(r.lo), units::format_bytes_binary(r.hi)),
        r.ram_multiple ? ", or a multiple of RAM such as 5x-ram" : "");
  case value_kind::duration:
    return "a duration " + bounds(r, duration_words(r.lo), duration_words(r.hi));
  case value_kind::rate:
    return "a rate " + bounds(r, units::format_rate_both(r.lo), units::format_rate_both(r.hi));
  case value_kind::text:
    return fmt::format("text of at most {} bytes", kMaxText);
  case value_kind::path:
    return fmt::format("a path of at most {} bytes, each name at most {} (s3://BUCKET/KEY: a key "
                       "of at most {} bytes)",
                       kMaxPath, kMaxName, kMaxS3Key);
  }
  return "";
}

std::string text_problem(const value_rule& r, std::string_view text) {
  switch (r.kind) {
  case value_kind::flag:
    return text == "true" || text == "false" || text == "1" || text == "0"
               ? ""
               : fmt::format("'{}' is not valid. valid: {}", text, describe(r));
  case value_kind::count:
    return count_problem(r, text);
  case value_kind::text:
    return text.size() > kMaxText
               ? fmt::format("text of {} bytes. valid: {}", text.size(), describe(r))
               : "";
  case value_kind::path:
    return path_problem(text);
  default:
    break;
  }
  double v = 0;
  std::string why;
  if (!value_of(r, text, v, why))
    return why.empty() ? fmt::format("'{}' is not valid. valid: {}", text, describe(r)) : why;
  if (!(r.lo_open ? v > r.lo : v >= r.lo) || !(v <= r.hi))
    return fmt::format("{} is out of range. valid: {}", text, describe(r));
  return "";
}

std::string json_problem(const value_rule& r, const nlohmann::json& v) {
  bool type_ok = false;
  switch (r.kind) {
  case value_kind::flag:
    type_ok = v.is_boolean();
    break;
  case value_kind::count:
    type_ok = v.is_number_integer();
    break;
  case value_kind::real:
    type_ok = v.is_number();
    break;
  case value_kind::fraction:
  case value_kind::size:
  case value_kind::duration:
  case value_kind::rate:
    type_ok = v.is_number() || v.is_string();
    break;
  case value_kind::text:
  case value_kind::path:
    type_ok = v.is_string();
    break;
  }
  if (!type_ok)
    return fmt::format("{} is {}. valid: {}", v.dump(), json_type_words(v), describe(r));
  return text_problem(r, v.is_string() ? v.get<std::string>() : v.dump());
}

void check_text(const value_rule& r, std::string_view text, std::string_view name) {
  const std::string p = text_problem(r, text);
  if (!p.empty())
    throw usage_error(fmt::format("{}: {}", name, p));
}

void check_json(const value_rule& r, const nlohmann::json& v, std::string_view name) {
  const std::string p = json_problem(r, v);
  if (!p.empty())
    throw usage_error(fmt::format("{}: {}", name, p));
}

} // namespace dlsize::core
