#pragma once
// Files that appear whole or not at all, and never replace what was there.
#include <filesystem>
#include <string>
#include <string_view>

namespace dlsize {

// A file written piece by piece that appears whole or not at all: a temporary file in the
// destination's folder until commit(), removed if the writer is destroyed before. For outputs
// too large to hold in memory (an index of millions of files).
class atomic_writer {
public:
  // Throws run_error when the temporary file cannot be made.
  explicit atomic_writer(std::filesystem::path path);
  ~atomic_writer();
  atomic_writer(const atomic_writer&) = delete;
  atomic_writer& operator=(const atomic_writer&) = delete;
  // Appends; throws run_error on I/O failure.
  void write(std::string_view bytes);
  // fsync, then the link into place (or a rename over it with replace_own). Throws usage_error
  // if path exists (dlsize never overwrites a file it did not make) and run_error on failure.
  void commit(bool replace_own = false);
  const std::string& temporary_path() const { return m_tmp; }

private:
  std::filesystem::path m_path;
  std::string m_tmp;
  int m_fd = -1;
};

// Writes content to path atomically: a temporary file in the same folder, fsync, then a
// link-into-place that fails if path exists. Throws usage_error if path exists (unless
// replace_own is true, for files dlsize itself owns, such as a dataset's state file) and
// run_error on I/O failure.
void write_file_atomic(const std::filesystem::path& path, std::string_view content,
                       bool replace_own = false);

// Moves from to to unless to exists (renameat2 RENAME_NOREPLACE; link and unlink where the file
// system lacks it; a check and a rename where it has no hard links either). Returns 0, or the
// errno value: EEXIST when to exists.
int move_no_replace(const std::filesystem::path& from, const std::filesystem::path& to);

// Whole file as a string; throws usage_error naming the file when it cannot be read.
std::string read_text_file(const std::filesystem::path& path);

} // namespace dlsize
