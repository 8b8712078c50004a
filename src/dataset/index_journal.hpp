#pragma once
// The resume state of `dlsize index`: INDEX.json.resume beside --out (never under DIR), so that
// an interrupted scan of millions of files continues where it stopped. It is one append-only
// file: a first line naming the scan (DIR and the options that change what is indexed), then
// chunks, each the index lines a thread wrote for one unit of work (a folder, or a batch of
// --files-from) followed by a trailer line (dataset/index_journal_document.hpp: unit, final,
// lines, hash, counts, subdirs, links, followed). A unit is finished when a chunk of it says final.
// A SIGKILL at any moment leaves a valid prefix: on open, the chunks are checked (line count, the
// index digest of their lines) up to the first that is incomplete or damaged, and the chunks of
// units not finished are dropped (those folders are read again). The file is flock'ed while a scan
// uses it.
#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "dataset/index_document.hpp"
#include "dataset/index_file.hpp"
#include "dataset/index_journal_document.hpp"

namespace dlsize::dataset {

class index_journal {
public:
  static std::filesystem::path path_for(const std::filesystem::path& out);
  // Opens (resumes) or creates the state for `identity` (DIR and options). Throws usage_error
  // naming the state file when it belongs to another scan or another dlsize index holds it.
  index_journal(const std::filesystem::path& out, const index_scan_identity& identity);
  ~index_journal();
  index_journal(const index_journal&) = delete;
  index_journal& operator=(const index_journal&) = delete;

  const std::filesystem::path& path() const { return m_path; }
  bool resumed() const { return m_resumed; }
  // The finished units' trailers, as found on open.
  const std::vector<index_chunk>& finished() const { return m_finished; }
  // Appends one chunk (lines: whole lines, each ending in '\n'); not thread-safe. Data reach the
  // disk (fdatasync) at least once a second and at sync().
  void append(std::string_view lines, const index_chunk& chunk);
  void sync();
  // Every index line of the state, in file order (trailers left out).
  void for_each_line(const std::function<void(std::string_view)>& line) const;
  // The lines of the state's chunks (those kept on open and those appended since): their
  // count and digest (index_digest's sum), for the index header without hashing them again.
  std::uint64_t lines() const { return m_lines; }
  const index_digest& lines_digest() const { return m_digest; }
  // Removes the state (after the index is in place).
  void remove();

private:
  void load(const nlohmann::json& identity);
  std::filesystem::path m_path;
  int m_fd = -1;
  bool m_resumed = false;
  std::vector<index_chunk> m_finished;
  std::uint64_t m_last_sync_ns = 0;
  std::uint64_t m_lines = 0;
  index_digest m_digest;
};

// Writes the index from a finished scan's resume state: the header (with counts and the digest
// of DIR, or the bucket's URL, and every line), then the lines, into place atomically. Throws
// run_error when the state's lines and the counts disagree, and the writer's errors.
void write_index(const std::filesystem::path& out, const std::string& dir,
                 const index_journal& journal, index_header& header, const index_counts& totals);

} // namespace dlsize::dataset
