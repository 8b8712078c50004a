#include "dataset/datagen_journal.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <fstream>

#include <fmt/format.h>

#include "core/error.hpp"
#include "dataset/record.hpp"

namespace dlsize::dataset {
namespace fs = std::filesystem;
namespace {

// A journal of some rank: the prefix, then the rank's number.
bool is_journal_name(const std::string& name) {
  const std::string prefix = kJournalPrefix;
  return name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0 &&
         name.find_first_not_of("0123456789", prefix.size()) == std::string::npos;
}

} // namespace

datagen_journal::datagen_journal(const fs::path& dir, std::uint64_t files, unsigned rank)
    : m_path(dir / fmt::format("{}{}", kJournalPrefix, rank)),
      m_listed(static_cast<std::size_t>(files), false) {
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    if (!is_journal_name(e.path().filename().string()))
      continue;
    std::ifstream in(e.path());
    std::string line;
    // A line cut by a kill (the last one) does not parse and lists nothing.
    while (std::getline(in, line)) {
      if (line.empty() || line.find_first_not_of("0123456789") != std::string::npos ||
          line.size() > 19)
        continue;
      const std::uint64_t f = std::stoull(line);
      if (f < m_listed.size())
        m_listed[static_cast<std::size_t>(f)] = true;
    }
  }
  m_fd = ::open(m_path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0644);
  if (m_fd < 0)
    throw_syscall_error("open", errno, __FILE__, __LINE__,
                        "datagen's journal of the files it writes. path: " + m_path.string());
}

datagen_journal::~datagen_journal() {
  if (m_fd >= 0)
    ::close(m_fd);
}

bool datagen_journal::record(std::uint64_t file) {
  // One short write with O_APPEND: lines of concurrent writers never interleave.
  const std::string line = fmt::format("{}\n", file);
  for (;;) {
    const ssize_t n = ::write(m_fd, line.data(), line.size());
    if (n == static_cast<ssize_t>(line.size()))
      return true;
    if (n < 0 && errno == EINTR)
      continue;
    if (n >= 0)
      errno = EIO;
    return false;
  }
}

file_state datagen_journal::inspect(const dataset_layout& layout, std::uint64_t file,
                                    std::string& why) const {
  const fs::path final_path = layout.file_path(file);
  const fs::path partial = final_path.string() + ".partial";
  struct stat st {};
  if (lstat(final_path.c_str(), &st) == 0) {
    why = not_this_dataset(layout, file, final_path, false);
    return why.empty() ? file_state::complete : file_state::foreign;
  }
  if (lstat(partial.c_str(), &st) != 0)
    return file_state::absent;
  if (!lists(file)) {
    why = fmt::format("'{}' is not in datagen's journal of the files it wrote", partial.string());
    return file_state::foreign;
  }
  why = not_this_dataset(layout, file, partial, true);
  if (!why.empty())
    return file_state::foreign;
  if (::unlink(partial.c_str()) != 0 && errno != ENOENT) {
    why = fmt::format("'{}' cannot be removed: {}", partial.string(), errno_text(errno));
    return file_state::foreign;
  }
  return file_state::absent;
}

void datagen_journal::remove_all(const fs::path& dir) {
  std::error_code ec;
  std::vector<fs::path> found;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (is_journal_name(e.path().filename().string()))
      found.push_back(e.path());
  for (const auto& p : found)
    fs::remove(p, ec);
}

bool starts_with_first_record(const dataset_layout& layout, std::uint64_t file,
                              const std::byte* head, std::size_t bytes) {
  // The header's bytes up to its payload checksum: magic, version, header bytes, dataset id,
  // record index and payload bytes; as many of them as there are.
  const std::uint64_t first = layout.first_record(file);
  record_header h;
  h.dataset_id = layout.params().dataset_id();
  h.index = first;
  h.payload_bytes = static_cast<std::uint32_t>(layout.record_bytes(first) - kHeaderBytes);
  std::array<std::byte, kHeaderBytes> expected{};
  encode_header(h, expected.data());
  return std::memcmp(head, expected.data(), std::min<std::size_t>(bytes, kHeaderBytes - 4)) == 0;
}

std::string not_this_dataset(const dataset_layout& layout, std::uint64_t file, const fs::path& path,
                             bool partial) {
  struct stat st {};
  if (lstat(path.c_str(), &st) != 0)
    return fmt::format("'{}' cannot be read: {}", path.string(), errno_text(errno));
  if (!S_ISREG(st.st_mode))
    return fmt::format("'{}' is not a regular file", path.string());
  const auto size = static_cast<std::uint64_t>(st.st_size);
  const std::uint64_t want = layout.file_bytes(file);
  if (partial ? size > want : size != want)
    return fmt::format("'{}' holds {} bytes, {} {} in this dataset", path.string(), size,
                       partial ? "more than the" : "not the", want);
  if (size == 0)
    return "";
  std::array<std::byte, kHeaderBytes> buf{};
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
  if (fd < 0)
    return fmt::format("'{}' cannot be read: {}", path.string(), errno_text(errno));
  const ssize_t n = ::pread(fd, buf.data(), buf.size(), 0);
  const int err = errno;
  ::close(fd);
  if (n != static_cast<ssize_t>(std::min<std::uint64_t>(size, buf.size())))
    return fmt::format("'{}' cannot be read: {}", path.string(),
                       n < 0 ? errno_text(err) : std::string("a short read"));
  if (!starts_with_first_record(layout, file, buf.data(), static_cast<std::size_t>(n)))
    return fmt::format("'{}' does not start with record {} of dataset {:016x} (no dlsize record "
                       "header with the dataset's id)",
                       path.string(), layout.first_record(file), layout.params().dataset_id());
  return "";
}

} // namespace dlsize::dataset
