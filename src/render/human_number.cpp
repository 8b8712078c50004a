#include "render/human_number.hpp"

#include <cmath>

#include <fmt/format.h>

#include "core/units.hpp"

namespace dlsize::render {
namespace {

std::string grouped(double v) {
  std::string digits = fmt::format("{:.0f}", std::fabs(v));
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0)
      out += ',';
    out += digits[i];
  }
  return (v < 0 ? "-" : "") + out;
}

} // namespace

std::string human(double v) {
  if (!std::isfinite(v))
    return "–";
  const double a = std::fabs(v);
  if (a >= 1000)
    return grouped(v);
  if (a == 0)
    return "0";
  // Four significant digits, fixed point: decimals = 3 − floor(log10 |v|).
  const int decimals = std::max(0, 3 - static_cast<int>(std::floor(std::log10(a))));
  std::string s = fmt::format("{:.{}f}", v, decimals);
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0')
      s.pop_back();
    if (s.back() == '.')
      s.pop_back();
  }
  return s;
}

std::string au_text(double au) {
  return std::isfinite(au) ? fmt::format("{:.1f} %", 100 * au) : "–";
}

std::string human_duration(double s) {
  if (s < 120)
    return fmt::format("{:.1f} s", s);
  if (s < 7200)
    return fmt::format("{:.1f} min", s / 60);
  return human(s / 3600) + " h";
}

std::string human_rate(double bytes_per_s) {
  if (!(bytes_per_s >= 1e9))
    return units::format_rate_both(bytes_per_s);
  return fmt::format("{} GB/s ({} GiB/s)", human(bytes_per_s / 1e9),
                     human(bytes_per_s / (1024.0 * 1024 * 1024)));
}

} // namespace dlsize::render
