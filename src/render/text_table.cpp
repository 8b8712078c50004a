#include "render/text_table.hpp"

namespace dlsize::render {
namespace {

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

} // namespace dlsize::render
