#pragma once
// Numbers as people read them in tables: no exponents, thousands separated, AU one way.
#include <string>

namespace dlsize::render {

// 13820 → "13,820"; 1234.56 → "1,235"; 12.345 → "12.35"; 0.01234 → "0.01234"; NaN → "–".
// Four significant digits, never an exponent.
std::string human(double v);

// AU (a fraction) as every table shows it: "99.9 %"; NaN → "–".
std::string au_text(double au);

} // namespace dlsize::render
