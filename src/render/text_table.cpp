#include "render/text_table.hpp"

#include <algorithm>

namespace dlsize::render {
namespace {

// Columns a UTF-8 string takes on a terminal: its code points ("–" is one).
std::size_t width_of(const std::string& s) {
  return static_cast<std::size_t>(
      std::count_if(s.begin(), s.end(), [](char c) { return (c & 0xC0) != 0x80; }));
}

std::string cell(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n')
      out += ' ';
    else
      out += c;
  }
  return out.empty() ? "–" : out;
}

std::string row(const std::vector<std::string>& cells) {
  std::string out = "|";
  for (const auto& c : cells)
    out += " " + cell(c) + " |";
  return out + "\n";
}

} // namespace

std::string markdown_table(const text_table& t) {
  std::string out = row(t.header) + "|";
  for (std::size_t i = 0; i < t.header.size(); ++i)
    out += "---|";
  out += "\n";
  for (const auto& r : t.rows)
    out += row(r);
  return out;
}

std::string aligned_table(const text_table& t, const std::string& indent) {
  std::vector<std::size_t> widths(t.header.size(), 0);
  auto measure = [&](const std::vector<std::string>& r) {
    for (std::size_t i = 0; i < r.size() && i < widths.size(); ++i)
      widths[i] = std::max(widths[i], width_of(r[i]));
  };
  measure(t.header);
  for (const auto& r : t.rows)
    measure(r);
  auto line = [&](const std::vector<std::string>& r) {
    std::string out = indent;
    for (std::size_t i = 0; i < r.size() && i < widths.size(); ++i)
      out += std::string(widths[i] - width_of(r[i]) + (i ? 2 : 0), ' ') + r[i];
    return out + "\n";
  };
  std::string out = line(t.header);
  for (const auto& r : t.rows)
    out += line(r);
  return out;
}

} // namespace dlsize::render
