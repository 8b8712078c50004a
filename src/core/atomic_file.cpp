#include "core/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "core/error.hpp"

namespace dlsize {
namespace fs = std::filesystem;

atomic_writer::atomic_writer(fs::path path) : m_path(std::move(path)) {
  fs::path dir = m_path.parent_path();
  if (dir.empty())
    dir = ".";
  m_tmp = (dir / ("." + m_path.filename().string() + ".XXXXXX")).string();
  m_fd = mkstemp(m_tmp.data());
  if (m_fd < 0)
    throw_syscall_error("mkstemp", errno, __FILE__, __LINE__, "path: " + m_tmp);
  fchmod(m_fd, 0644);
}

atomic_writer::~atomic_writer() {
  if (m_fd >= 0) {
    close(m_fd);
    unlink(m_tmp.c_str());
  }
}

void atomic_writer::write(std::string_view content) {
  std::size_t done = 0;
  while (done < content.size()) {
    ssize_t n = ::write(m_fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      throw_syscall_error("write", errno, __FILE__, __LINE__, "path: " + m_path.string());
    }
    done += static_cast<std::size_t>(n);
  }
}

void atomic_writer::commit(bool replace_own) {
  if (fsync(m_fd) != 0)
    throw_syscall_error("fsync", errno, __FILE__, __LINE__, "path: " + m_path.string());
  close(m_fd);
  m_fd = -1;
  if (replace_own) {
    if (rename(m_tmp.c_str(), m_path.c_str()) != 0) {
      int err = errno;
      unlink(m_tmp.c_str());
      throw_syscall_error("rename", err, __FILE__, __LINE__, "path: " + m_path.string());
    }
  } else if (link(m_tmp.c_str(), m_path.c_str()) != 0) {
    int err = errno;
    unlink(m_tmp.c_str());
    if (err == EEXIST)
      throw usage_error(
          fmt::format("'{}' exists; dlsize never overwrites a file", m_path.string()));
    throw_syscall_error("link", err, __FILE__, __LINE__, "path: " + m_path.string());
  } else {
    unlink(m_tmp.c_str());
  }
  fs::path dir = m_path.parent_path();
  int dfd = open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (dfd >= 0) {
    fsync(dfd);
    close(dfd);
  }
}

void write_file_atomic(const fs::path& path, std::string_view content, bool replace_own) {
  atomic_writer w(path);
  w.write(content);
  w.commit(replace_own);
}

std::string read_text_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw usage_error(fmt::format("cannot read '{}': {}", path.string(), errno_text(errno)));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

int move_no_replace(const std::filesystem::path& from, const std::filesystem::path& to) {
  if (renameat2(AT_FDCWD, from.c_str(), AT_FDCWD, to.c_str(), RENAME_NOREPLACE) == 0)
    return 0;
  if (errno != EINVAL && errno != ENOSYS)
    return errno;
  // File systems without RENAME_NOREPLACE: link fails on an existing name, as wanted.
  if (link(from.c_str(), to.c_str()) == 0) {
    unlink(from.c_str());
    return 0;
  }
  if (errno != EPERM && errno != ENOTSUP && errno != ENOSYS)
    return errno;
  // Nor hard links (vfat, some FUSE and gateway file systems): a check, then a rename; the name
  // can only be taken in the instant between.
  struct stat st {};
  if (lstat(to.c_str(), &st) == 0)
    return EEXIST;
  return std::rename(from.c_str(), to.c_str()) == 0 ? 0 : errno;
}

} // namespace dlsize
