#include "config/checkpoint_interval.hpp"

#include <cctype>
#include <charconv>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/units.hpp"

namespace dlsize::config {

std::string checkpoint_interval::text() const {
  if (in_steps())
    return fmt::format("{} step{}", steps, steps == 1 ? "" : "s");
  if (seconds >= 3600 && static_cast<std::uint64_t>(seconds) % 3600 == 0)
    return fmt::format("{} h", seconds / 3600);
  if (seconds >= 60)
    return fmt::format("{:g} min", seconds / 60);
  return fmt::format("{:g} s", seconds);
}

checkpoint_interval parse_checkpoint_interval(std::string_view text, std::string_view option) {
  auto refuse = [&](std::string_view why) -> checkpoint_interval {
    throw usage_error(fmt::format("{}: '{}' {}. valid: a step count with its unit (500steps) or "
                                  "a duration with its unit (30min, 1h, 90s)",
                                  option, text, why));
  };
  std::size_t digits = 0;
  while (digits < text.size() &&
         (std::isdigit(static_cast<unsigned char>(text[digits])) || text[digits] == '.'))
    ++digits;
  std::string_view unit = text.substr(digits);
  while (!unit.empty() && unit.front() == ' ')
    unit.remove_prefix(1);
  if (digits == 0)
    return refuse("is not an interval");
  if (unit.empty())
    return refuse("has no unit");
  checkpoint_interval out;
  if (unit == "steps" || unit == "step") {
    const std::string_view number = text.substr(0, digits);
    const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), out.steps);
    if (ec != std::errc() || end != number.data() + number.size())
      return refuse("is not a whole number of steps");
    if (out.steps == 0)
      return refuse("is zero");
    return out;
  }
  out.seconds = units::parse_duration(text, option);
  if (!(out.seconds > 0))
    return refuse("is zero");
  return out;
}

} // namespace dlsize::config
