#include "telemetry/fact_files.hpp"

#include <charconv>
#include <fstream>
#include <sstream>

namespace dlsize::telemetry {

std::optional<std::string> read_fact(const std::filesystem::path& file) {
  std::ifstream in(file);
  if (!in)
    return std::nullopt;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::optional<std::string> first_line_of(const std::filesystem::path& file) {
  const auto text = read_fact(file);
  if (!text)
    return std::nullopt;
  std::string line = text->substr(0, text->find('\n'));
  const auto b = line.find_first_not_of(" \t\r");
  const auto e = line.find_last_not_of(" \t\r");
  return b == std::string::npos ? std::string() : line.substr(b, e - b + 1);
}

std::optional<std::uint64_t> number_in(const std::filesystem::path& file) {
  const auto line = first_line_of(file);
  std::uint64_t v = 0;
  if (!line || line->empty())
    return std::nullopt;
  const auto [p, ec] = std::from_chars(line->data(), line->data() + line->size(), v);
  if (ec != std::errc() || p != line->data() + line->size())
    return std::nullopt;
  return v;
}

std::vector<std::string_view> lines_of(std::string_view text) {
  std::vector<std::string_view> out;
  while (!text.empty()) {
    const auto nl = text.find('\n');
    out.push_back(text.substr(0, nl));
    if (nl == std::string_view::npos)
      break;
    text.remove_prefix(nl + 1);
  }
  return out;
}

} // namespace dlsize::telemetry
