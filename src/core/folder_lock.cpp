#include "core/folder_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cstdio>

#include <fmt/format.h>

#include "core/error.hpp"

namespace dlsize::core {

folder_lock::folder_lock(const std::filesystem::path& dir, const std::string& option,
                         const std::string& command) {
  const std::string path = dir.string();
  const int fd =
      DLSIZE_SYSCALL(::open(path.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC), "path: " + path);
  if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
    m_fd = fd;
    return;
  }
  const int err = errno;
  close(fd);
  if (err == EWOULDBLOCK)
    throw usage_error(fmt::format("{}: another dlsize {} is running in '{}' (it holds the lock on "
                                  "the folder). valid: wait for it to end, or another folder",
                                  option, command, path));
  // Only EWOULDBLOCK means a holder; anything else is the file system's inability to lock.
  std::fprintf(stderr,
               "dlsize: warning: cannot lock '%s' (flock: %s; NFS and some other file systems do "
               "not support it); going on without a lock, so do not run two dlsize %s commands "
               "on this folder at once\n",
               path.c_str(), errno_text(err).c_str(), command.c_str());
}

folder_lock::~folder_lock() {
  if (m_fd >= 0)
    close(m_fd);
}

} // namespace dlsize::core
