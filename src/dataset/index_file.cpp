#include "dataset/index_file.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/input_watch.hpp"
#include "core/json_input.hpp"

namespace dlsize::dataset {
namespace fs = std::filesystem;
namespace {

const core::json_limits kIndexLine{"dataset index", kMaxIndexLine};

} // namespace

std::string index_digest::text() const {
  return fmt::format("fnv1a64:{:016x}", m_sum);
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
  const auto header =
      header_from_json(core::parse_json(line, m_source + " (header line)", kIndexLine));
  if (!header)
    throw usage_error(fmt::format("{}: not a dlsize index (the first line must be an object with "
                                  "schema '{}', dir, counts and digest)",
                                  m_source, kIndexSchema));
  m_header = *header;
  m_dir = m_header.dir;
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

bool index_reader::next(index_line& out) {
  std::string line;
  core::note_input_progress(); // under a pre-run watch, each line read is progress
  if (!read_line(line)) {
    const std::uint64_t lines = m_header.counts.lines, files = m_header.counts.files;
    if (m_digest.text() != m_header.digest || lines != m_lines || files != m_files)
      throw usage_error(fmt::format(
          "{}: the index does not match its digest or counts (header: {} lines, {} files, {}; "
          "read: {} lines, {} files, {}): edited by hand or truncated. valid: an index as "
          "`dlsize index` wrote it; index the folder again",
          m_source, lines, files, m_header.digest, m_lines, m_files, m_digest.text()));
    return false;
  }
  ++m_lines;
  m_digest.add(line);
  m_digest.add("\n");
  auto parsed = line_from_json(
      core::parse_json(line, fmt::format("{} (line {})", m_source, m_lines + 1), kIndexLine));
  if (!parsed)
    throw usage_error(
        fmt::format("{}: line {}: expected an object with a path", m_source, m_lines + 1));
  out = std::move(*parsed);
  if (!out.skipped)
    ++m_files;
  return true;
}

bool append_json_string(std::string& out, std::string_view s) {
  const std::size_t start = out.size();
  out += '"';
  for (std::size_t i = 0; i < s.size(); ++i) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20) {
      fmt::format_to(std::back_inserter(out), "\\u{:04x}", c);
    } else if (c < 0x80) {
      out += static_cast<char>(c);
    } else {
      // A UTF-8 sequence: its length from the lead byte, continuation bytes 10xxxxxx, no
      // overlong forms or surrogates.
      const std::size_t n = c >= 0xf0 && c <= 0xf4  ? 4
                            : c >= 0xe0             ? 3
                            : c >= 0xc2 && c < 0xe0 ? 2
                                                    : 0;
      bool ok = n > 0 && n <= 4 && i + n <= s.size();
      for (std::size_t k = 1; ok && k < n; ++k)
        ok = (static_cast<unsigned char>(s[i + k]) & 0xc0) == 0x80;
      if (ok && n == 3) {
        const auto c1 = static_cast<unsigned char>(s[i + 1]);
        ok = !(c == 0xe0 && c1 < 0xa0) && !(c == 0xed && c1 >= 0xa0);
      } else if (ok && n == 4) {
        const auto c1 = static_cast<unsigned char>(s[i + 1]);
        ok = !(c == 0xf0 && c1 < 0x90) && !(c == 0xf4 && c1 >= 0x90);
      }
      if (!ok) {
        out.resize(start);
        return false;
      }
      out.append(s.data() + i, n);
      i += n - 1;
    }
  }
  out += '"';
  return true;
}

fs::path index_dir(const fs::path& index) {
  return index_reader(index).dir();
}

} // namespace dlsize::dataset
