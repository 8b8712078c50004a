#include "telemetry/os_release.hpp"

#include "telemetry/fact_files.hpp"

namespace dlsize::telemetry {
namespace {

std::string unquote(std::string_view v) {
  if (v.size() >= 2 && (v.front() == '"' || v.front() == '\'') && v.back() == v.front()) {
    const bool escapes = v.front() == '"';
    v = v.substr(1, v.size() - 2);
    std::string out;
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (escapes && v[i] == '\\' && i + 1 < v.size())
        ++i;
      out += v[i];
    }
    return out;
  }
  return std::string(v);
}

} // namespace

std::map<std::string, std::string> parse_os_release(std::string_view text) {
  std::map<std::string, std::string> out;
  for (const auto line : lines_of(text)) {
    const auto eq = line.find('=');
    if (line.empty() || line.front() == '#' || eq == std::string_view::npos || eq == 0)
      continue;
    out[std::string(line.substr(0, eq))] = unquote(line.substr(eq + 1));
  }
  return out;
}

os_facts os_of(const std::filesystem::path& root) {
  auto text = read_fact(root / "etc/os-release");
  if (!text)
    text = read_fact(root / "usr/lib/os-release");
  const auto kv = parse_os_release(text.value_or(""));
  auto get = [&](const char* k) {
    const auto it = kv.find(k);
    return it == kv.end() ? field<std::string>::null() : field<std::string>(it->second);
  };
  os_facts os;
  os.name = get("NAME");
  os.version_id = get("VERSION_ID");
  os.pretty_name = get("PRETTY_NAME");
  return os;
}

} // namespace dlsize::telemetry
