#include "dataset/index_file.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/json_input.hpp"

namespace dlsize::dataset {
namespace fs = std::filesystem;
namespace {

const core::json_limits kIndexLine{"dataset index", kMaxIndexLine};

} // namespace

std::string index_digest::text() const {
  return fmt::format("fnv1a64:{:016x}", m_h);
}

index_reader::index_reader(const fs::path& path) : m_source(path.string()) {
  std::error_code ec;
  if (!fs::is_regular_file(path, ec))
    throw usage_error(fmt::format("--index: '{}' is not a file. valid: an index made by `dlsize "
                                  "index DIR --out INDEX`",
                                  m_source));
  m_f = std::fopen(path.c_str(), "rb");
  if (!m_f)
    throw usage_error(fmt::format("--index: cannot read '{}': {}", m_source, errno_text(errno)));
  std::string line;
  if (!read_line(line))
    throw usage_error(fmt::format("{}: empty; not a dlsize index", m_source));
  m_header = core::parse_json(line, m_source + " (header line)", kIndexLine);
  if (!m_header.is_object() || m_header.value("schema", "") != kIndexSchema ||
      !m_header.value("dir", nlohmann::json()).is_string() ||
      !m_header.value("digest", nlohmann::json()).is_string() ||
      !m_header.value("counts", nlohmann::json()).is_object())
    throw usage_error(fmt::format("{}: not a dlsize index (the first line must be an object with "
                                  "schema '{}', dir, counts and digest)",
                                  m_source, kIndexSchema));
  m_dir = m_header["dir"].get<std::string>();
  m_digest.add(m_dir.string());
  m_digest.add("\n");
}

index_reader::~index_reader() {
  if (m_f)
    std::fclose(m_f);
}

bool index_reader::read_line(std::string& line) {
  line.clear();
  for (;;) {
    const int c = getc_unlocked(m_f);
    if (c == EOF)
      return !line.empty();
    if (c == '\n')
      return true;
    if (line.size() >= kMaxIndexLine)
      throw usage_error(fmt::format("{}: line {} is longer than {} bytes; not a dlsize index",
                                    m_source, m_lines + 2, kMaxIndexLine));
    line.push_back(static_cast<char>(c));
  }
}

bool index_reader::next(nlohmann::json& out) {
  std::string line;
  if (!read_line(line)) {
    const auto& counts = m_header["counts"];
    const std::uint64_t lines = counts.value("lines", std::uint64_t{0});
    const std::uint64_t files = counts.value("files", std::uint64_t{0});
    if (m_digest.text() != m_header["digest"].get<std::string>() || lines != m_lines ||
        files != m_files)
      throw usage_error(fmt::format(
          "{}: the index does not match its digest or counts (header: {} lines, {} files, {}; "
          "read: {} lines, {} files, {}): edited by hand or truncated. valid: an index as "
          "`dlsize index` wrote it; index the folder again",
          m_source, lines, files, m_header["digest"].get<std::string>(), m_lines, m_files,
          m_digest.text()));
    return false;
  }
  ++m_lines;
  m_digest.add(line);
  m_digest.add("\n");
  out = core::parse_json(line, fmt::format("{} (line {})", m_source, m_lines + 1), kIndexLine);
  if (!out.is_object() || !out.value("path", nlohmann::json()).is_string())
    throw usage_error(
        fmt::format("{}: line {}: expected an object with a path", m_source, m_lines + 1));
  if (!out.contains("skipped"))
    ++m_files;
  return true;
}

fs::path index_dir(const fs::path& index) {
  return index_reader(index).dir();
}

} // namespace dlsize::dataset
