#pragma once
// What a generation wrote, so that a resumed one touches only its own files. Before a writer
// creates FILE.partial it appends the file's number to its rank's journal
// (.dlsize-datagen.journal-<rank>, beside the state file). On resume a name in a writer's way is
// judged by content, never by name alone: a final file is kept only when it is this dataset's
// (its size, and its first record's header with the dataset's id and the file's first record);
// a partial file is removed only when a journal lists it and what it holds is the start of this
// dataset's file. Anything else is foreign: the generation stops naming it (exit 2).
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "dataset/layout.hpp"

namespace dlsize::dataset {

inline constexpr const char* kJournalPrefix = ".dlsize-datagen.journal-";

// What is at a file's names before a writer takes it.
enum class file_state {
  absent,   // nothing under either name (a partial of ours was removed): write it
  complete, // the final name holds this dataset's file: keep it
  foreign   // a file this generation did not write is in the way: stop
};

class datagen_journal {
public:
  // Reads every rank's journal in dir and opens rank's own for appending. Throws run_error when
  // it cannot be opened.
  datagen_journal(const std::filesystem::path& dir, std::uint64_t files, unsigned rank);
  ~datagen_journal();
  datagen_journal(const datagen_journal&) = delete;
  datagen_journal& operator=(const datagen_journal&) = delete;

  // Appends file's number before its partial file is made; errno set and false on failure.
  bool record(std::uint64_t file);
  // Whether an earlier run's journal lists file.
  bool lists(std::uint64_t file) const { return file < m_listed.size() && m_listed[file]; }
  const std::filesystem::path& path() const { return m_path; }

  // Judges file's names (see above); a partial of ours is removed here. `why` says what makes a
  // foreign file foreign.
  file_state inspect(const dataset_layout& layout, std::uint64_t file, std::string& why) const;

  // Removes every rank's journal of dir (when the dataset is sealed).
  static void remove_all(const std::filesystem::path& dir);

private:
  std::filesystem::path m_path;
  std::vector<bool> m_listed;
  int m_fd = -1;
};

// Why the file at path is not (the start of) file `file` of layout, or "" when it is: a regular
// file of want bytes (at most want bytes, when partial) whose first record header has the
// dataset's id and the file's first record (a partial file shorter than a header: as many of
// the header's bytes as it holds; an empty one passes).
std::string not_this_dataset(const dataset_layout& layout, std::uint64_t file,
                             const std::filesystem::path& path, bool partial);

// Whether the first `bytes` bytes of a file (or object) are those of the header of file `file`'s
// first record (up to its payload checksum): the dataset's id, the record's index and size.
bool starts_with_first_record(const dataset_layout& layout, std::uint64_t file,
                              const std::byte* head, std::size_t bytes);

} // namespace dlsize::dataset
