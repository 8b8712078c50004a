#pragma once
// Numbers as people read them in tables: no exponents, thousands separated, AU one way.
#include <string>

namespace dlsize::render {

// 13820 → "13,820"; 1234.56 → "1,235"; 12.345 → "12.35"; 0.01234 → "0.01234"; NaN → "–".
// Four significant digits, never an exponent.
std::string human(double v);

// AU (a fraction) as every table shows it: "99.9 %"; NaN → "–".
std::string au_text(double au);

// A duration in the unit people think of it in: "94.7 s", "7.6 min", "48.83 h", "50,000 h".
std::string human_duration(double s);

// A rate from 1 GB/s up in GB/s and GiB/s ("336.4 GB/s (313.3 GiB/s)"), below in MB/s and MiB/s
// (units::format_rate_both).
std::string human_rate(double bytes_per_s);

} // namespace dlsize::render
