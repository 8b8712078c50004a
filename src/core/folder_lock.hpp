#pragma once
// An advisory lock on a folder that a command writes into (a sweep, a dataset), so that two
// dlsize commands never write the same folder at once. The lock is flock(2) on the folder
// itself: no lock file is left behind, and the kernel drops it when the process dies, however
// it dies. Where the file system cannot lock (NFS emulates flock with POSIX locks and may answer
// EBADF or ENOLCK), the command goes on without a lock and says so.
#include <filesystem>
#include <string>

namespace dlsize::core {

class folder_lock {
public:
  // Locks dir (which must exist) for `command` ("sweep", "datagen"). Throws usage_error naming
  // `option` when another process holds the lock; warns on stderr and holds nothing when the
  // file system cannot lock; throws run_error when the folder cannot be opened.
  folder_lock(const std::filesystem::path& dir, const std::string& option,
              const std::string& command);
  ~folder_lock();
  folder_lock(folder_lock&& other) noexcept : m_fd(other.m_fd) { other.m_fd = -1; }
  folder_lock& operator=(folder_lock&&) = delete;
  folder_lock(const folder_lock&) = delete;
  folder_lock& operator=(const folder_lock&) = delete;
  // False when the file system could not lock (the command runs unprotected).
  bool held() const { return m_fd >= 0; }

private:
  int m_fd = -1;
};

} // namespace dlsize::core
