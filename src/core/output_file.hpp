#pragma once
// The file a command's result goes to, with the rules that keep a finished result from being
// lost: the name is checked and reserved before any work (OUT.partial-<pid>, made with O_EXCL),
// long runs rewrite the partial file as they go, and at the end the result takes the name if it
// is still free, or else lands beside it, in the current folder, or on stdout, saying where.
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

namespace dlsize {

// Where commit() put the result.
struct output_place {
  std::filesystem::path path; // empty: written to stdout
  bool fell_back = false;     // not at the name asked for: the command exits 1
};

class output_file {
public:
  // Checks path and reserves it. Throws usage_error naming option for an empty name, a name that
  // exists (a dangling symlink included), a missing or unwritable folder, or a name another
  // running dlsize has reserved; a stale OUT.partial-<pid> of a dead process is no obstacle,
  // and is removed (saying so on stderr) when it is empty or a dlsize JSON document.
  // make_folder: a missing folder is made (the default reports/), and removed again if the
  // command fails before it wrote anything there.
  output_file(std::filesystem::path path, std::string option, bool make_folder = false);
  // Removes the partial file (and a folder it made, when empty) unless commit() ran: a failed
  // command leaves nothing behind.
  ~output_file();
  output_file(const output_file&) = delete;
  output_file& operator=(const output_file&) = delete;
  output_file(output_file&& other) noexcept;
  output_file& operator=(output_file&&) = delete;

  // Replaces the partial file's content atomically (a long run's latest state, so that SIGKILL
  // loses at most one interval). Throws run_error on I/O failure.
  void write_partial(std::string_view content);

  // Writes the final content: to the name if it is still absent; otherwise (or on any write
  // failure) to NAME-<utc>-<pid>.json beside it, then the same file name in the current folder,
  // then stdout; a fallback is said on stderr. Never throws for a fallback it could take.
  output_place commit(std::string_view content);

  const std::filesystem::path& path() const { return m_path; }
  const std::filesystem::path& partial_path() const { return m_partial; }

private:
  std::filesystem::path m_path;
  std::filesystem::path m_partial;
  std::string m_option;
  bool m_done = false;
  bool m_made_folder = false;
};

// Writes content under a new name when `path` cannot take it (why: what went wrong there):
// NAME-<utc>-<pid>.EXT beside it, then that file name in the current folder, each made new (never
// over a file), and says on stderr where it went ("dlsize: LABEL 'PATH' could not be written
// (WHY); written to 'P' instead"). Returns the file written, or nothing when neither could be
// (why then lists every failure; the caller decides what is left, such as stdout).
std::optional<std::filesystem::path> write_under_new_name(const std::filesystem::path& path,
                                                          std::string_view content,
                                                          const std::string& label,
                                                          std::string& why);

// A command's optional output: reserved when its option was given (an empty name is refused
// then), nothing otherwise.
std::optional<output_file> reserve_if_given(bool given, const std::filesystem::path& path,
                                            const std::string& option);
// Commits content to f when there is one and prints "WHAT: PATH" on stdout; true when it fell
// back (the command then exits 1).
bool commit_output(std::optional<output_file>& f, std::string_view content, std::string_view what);

// reports/<command>-<workload>-<utc>.json under the current folder (for make_folder); a new
// name (a -<pid> suffix) if one run per second was not enough.
std::filesystem::path default_output_path(std::string_view command, std::string_view workload);

// Compact UTC time for file names: 20261203T093900Z.
std::string utc_stamp();

} // namespace dlsize
