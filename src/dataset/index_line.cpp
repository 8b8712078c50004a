#include "dataset/index_line.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <iterator>

#include <fmt/format.h>

#include "dataset/index_file.hpp"

namespace dlsize::dataset {

bool append_file_line(std::string& buf, index_counts& n, std::string_view rel, std::uint64_t size,
                      std::string_view fields, const probe_result& r) {
  const std::size_t line_start = buf.size();
  buf += "{\"path\":";
  if (!append_json_string(buf, rel)) {
    buf.resize(line_start);
    return false;
  }
  const std::uint64_t samples = r.records.empty() ? 1 : r.records.size();
  buf += fields;
  fmt::format_to(std::back_inserter(buf), ",\"format\":\"{}\",\"samples\":{}", r.format, samples);
  std::uint64_t sample_bytes = r.records.empty() ? size : 0;
  for (std::size_t i = 0; i < r.records.size(); ++i) {
    fmt::format_to(std::back_inserter(buf), "{}[{},{}]", i ? "," : ",\"records\":[",
                   r.records[i].offset, r.records[i].length);
    sample_bytes += r.records[i].length;
  }
  if (!r.records.empty())
    buf += ']';
  if (r.details)
    buf += ",\"details\":" +
           to_json(*r.details).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (!r.problem.empty()) {
    buf += ",\"problem\":" + nlohmann::json(r.problem).dump();
    ++n.problems;
  }
  buf += "}\n";
  auto& f = n.formats[r.format];
  f[0] += 1, f[1] += size, f[2] += samples;
  ++n.files, ++n.lines;
  n.bytes += size, n.samples += samples, n.sample_bytes += sample_bytes;
  return true;
}

void append_skipped_line(std::string& buf, index_counts& n, std::string_view rel,
                         std::string_view kind, std::string_view why) {
  ++n.skipped[std::string(kind)];
  ++n.lines;
  buf += skipped_line_json(rel, kind, why);
  buf += '\n';
}

bool index_excluded(const std::vector<std::string>& patterns, const std::string& rel) {
  const auto slash = rel.rfind('/');
  const char* base = rel.c_str() + (slash == std::string::npos ? 0 : slash + 1);
  return std::any_of(patterns.begin(), patterns.end(), [&](const std::string& p) {
    return fnmatch(p.c_str(), rel.c_str(), 0) == 0 || fnmatch(p.c_str(), base, 0) == 0;
  });
}

} // namespace dlsize::dataset
