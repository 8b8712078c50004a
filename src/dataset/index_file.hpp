#pragma once
// The index of a foreign dataset (dlsize.index/1), streamed so that ten million files neither
// meet a size limit nor sit in memory: a header line (tool, DIR, time, counts, digest), then one
// JSON line per file found. A file line: {"path" (relative to DIR), "size", "mtime_ns", "ino",
// "dev", "format", "samples", "records": [[offset, length], ...] (absent: the whole file is one
// sample), "details", "problem"}; a line for what was skipped: {"path", "skipped" (symlink,
// special, unreadable, hardlink, compressed), "reason"}. The digest covers DIR and every line
// after the header, so an index edited by hand is refused; the lines may come in any order.
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <string>
#include <string_view>

#include "dataset/index_document.hpp"

namespace dlsize::dataset {

// A line longer than this is refused (a shard of a million records is about 25 MB).
inline constexpr std::size_t kMaxIndexLine = 64u << 20;

// FNV-1a, 64 bits, of each line (its newline included), summed: detects edits and damage, not
// an attacker. The sum does not depend on the lines' order, so that a parallel scan (whose
// threads write folders in the order they finish) and a resumed one give the same digest for the
// same tree. Bytes may come in any pieces: a line ends at its '\n'.
class index_digest {
public:
  void add(std::string_view bytes) {
    for (unsigned char c : bytes) {
      m_line = (m_line ^ c) * 0x100000001b3ull;
      if (c == '\n') {
        m_sum += m_line;
        m_line = kFnvBasis;
      }
    }
  }
  std::string text() const;
  // The sum so far, and another digest's sum added (a resume state's chunks: their lines were
  // hashed as they were written).
  std::uint64_t sum() const { return m_sum; }
  void add_sum(std::uint64_t sum) { m_sum += sum; }

private:
  static constexpr std::uint64_t kFnvBasis = 0xcbf29ce484222325ull;
  std::uint64_t m_line = kFnvBasis;
  std::uint64_t m_sum = 0;
};

// Reads an index line by line, checking it as it goes. Throws usage_error naming the file (and
// line) for a file that is not an index, a line that is not JSON or too long, and, at the end,
// counts or a digest that do not match the lines (an edited or truncated index).
class index_reader {
public:
  explicit index_reader(const std::filesystem::path& path);
  ~index_reader();
  index_reader(const index_reader&) = delete;
  index_reader& operator=(const index_reader&) = delete;

  const index_header& header() const { return m_header; }
  const std::filesystem::path& dir() const { return m_dir; }
  // The next line after the header; false at the end (after the checks passed).
  bool next(index_line& line);
  const std::string& source() const { return m_source; }

private:
  bool read_line(std::string& line);
  std::FILE* m_f = nullptr;
  std::string m_source;
  index_header m_header;
  std::filesystem::path m_dir;
  index_digest m_digest;
  std::uint64_t m_lines = 0, m_files = 0;
};

// Appends s as a JSON string (quoted, escaped); false, with nothing appended, when s is not
// valid UTF-8 (a file name may be any bytes; JSON text cannot hold those). The scan writes
// millions of lines, so without building a JSON value for each.
bool append_json_string(std::string& out, std::string_view s);

// DIR of an index, from its header only (bench --index without --dataset).
std::filesystem::path index_dir(const std::filesystem::path& index);

} // namespace dlsize::dataset
