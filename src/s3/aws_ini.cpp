#include "s3/aws_ini.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <system_error>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/json_input.hpp"

namespace dlsize::s3 {
namespace {

// The size limit of a config or credentials file (read with the JSON inputs' bounded reader:
// a regular file or a pipe, nothing else).
constexpr core::json_limits kAwsFileLimits{"AWS config or credentials file", core::kSmallJsonBytes};

std::string lowercase(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// The parse's state: the section and the setting whose nested block indented lines continue.
class ini_parser {
public:
  explicit ini_parser(std::string file) { m_out.file = std::move(file); }

  void line(std::string_view raw, int number) {
    const std::string_view t = trim_blank(raw);
    if (t.empty() || t.front() == '#' || t.front() == ';')
      return;
    const bool indented = raw.front() == ' ' || raw.front() == '\t';
    if (indented && !m_nested.empty()) {
      add_nested(t, number);
      return;
    }
    m_nested.clear();
    if (t.front() == '[') {
      if (t.back() != ']')
        fail(number, "a section header without its closing ']'");
      add_section(trim_blank(t.substr(1, t.size() - 2)), number);
      return;
    }
    const auto [name, value] = setting(t, number);
    if (m_out.sections.empty())
      fail(number, "a setting before any [section]");
    auto& s = m_out.sections.back();
    if (s.values.count(name) || s.nested.count(name))
      fail(number, fmt::format("'{}' is set twice in [{}]", name, s.name));
    if (value.empty()) {
      // An empty value opens a nested block (`s3 =`), which indented lines fill.
      m_nested = name;
      s.nested[name];
    }
    s.values[name] = value;
  }

  aws_ini take() { return std::move(m_out); }

private:
  [[noreturn]] void fail(int number, std::string_view why) const {
    // The line is never quoted: it may hold a key.
    throw usage_error(fmt::format("{}: line {}: {}. valid: [PROFILE] sections of NAME = VALUE "
                                  "lines, as the AWS CLI writes them",
                                  m_out.file, number, why));
  }

  std::pair<std::string, std::string> setting(std::string_view t, int number) const {
    const std::size_t eq = t.find_first_of("=:");
    if (eq == std::string_view::npos)
      fail(number, "neither [SECTION] nor NAME = VALUE");
    const std::string name = lowercase(trim_blank(t.substr(0, eq)));
    if (name.empty())
      fail(number, "a setting without a name");
    return {name, std::string(trim_blank(t.substr(eq + 1)))};
  }

  void add_section(std::string_view name, int number) {
    if (name.empty())
      fail(number, "an empty section name");
    if (m_out.find(name))
      fail(number, fmt::format("the section [{}] is given twice", name));
    m_out.sections.push_back({std::string(name), number, {}, {}});
  }

  void add_nested(std::string_view t, int number) {
    const auto [name, value] = setting(t, number);
    auto& block = m_out.sections.back().nested[m_nested];
    if (block.count(name))
      fail(number, fmt::format("'{}' is set twice in '{}'", name, m_nested));
    block[name] = value;
  }

  aws_ini m_out;
  std::string m_nested; // the setting an indented line belongs to; empty: none open
};

} // namespace

std::string_view trim_blank(std::string_view s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string_view::npos)
    return {};
  const auto last = s.find_last_not_of(" \t\r");
  return s.substr(first, last - first + 1);
}

const std::string* aws_ini_section::get(std::string_view key) const {
  const auto it = values.find(std::string(key));
  return it == values.end() ? nullptr : &it->second;
}

const aws_ini_section* aws_ini::find(std::string_view name) const {
  for (const auto& s : sections)
    if (s.name == name)
      return &s;
  return nullptr;
}

aws_ini aws_ini::parse(std::string_view text, std::string file) {
  ini_parser p(std::move(file));
  int number = 0;
  std::size_t start = 0;
  while (start < text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    p.line(text.substr(start, end - start), ++number);
    start = end + 1;
  }
  return p.take();
}

aws_ini aws_ini::read(const std::string& file) {
  std::error_code ec;
  const auto status = std::filesystem::status(file, ec);
  if (status.type() == std::filesystem::file_type::not_found)
    return aws_ini{file, {}};
  return parse(core::read_input_file(file, kAwsFileLimits), file);
}

} // namespace dlsize::s3
