#include "io/file_table.hpp"

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cstdlib>
#include <ctime>

#include <fmt/format.h>

#include "core/error.hpp"
#include "io/change_watch.hpp"
#include "io/noatime.hpp"

namespace dlsize::io {

int open_for_read(const std::string& path, int flags) {
  int fd = open_noatime(path.c_str(), flags);
  if (fd < 0)
    throw run_error(fmt::format("cannot open data file: {}. file: {}", errno_text(errno), path));
  return fd;
}

file_table::file_table(const file_set& files, int flags) {
  rlimit rl{};
  getrlimit(RLIMIT_NOFILE, &rl);
  const rlim_t need = files.paths.size() + 256;
  if (rl.rlim_cur < need) {
    rl.rlim_cur = std::min(need, rl.rlim_max);
    setrlimit(RLIMIT_NOFILE, &rl);
    getrlimit(RLIMIT_NOFILE, &rl);
  }
  if (rl.rlim_cur < need)
    throw usage_error(fmt::format(
        "--open keep: {} files need {} descriptors but the limit is {} (hard limit {}). valid: "
        "--open per-sample, or raise the limit with ulimit -n",
        files.paths.size(), need, rl.rlim_cur, rl.rlim_max));
  m_fds.reserve(files.paths.size());
  try {
    for (const auto& p : files.paths) {
      m_fds.push_back(open_for_read(p, flags));
      // Every file is opened here, once: its check at open is now (a changed file, in skip
      // mode, is marked, and its jobs skipped).
      if (files.watch)
        files.watch->at_open(m_fds.back(), static_cast<std::uint32_t>(m_fds.size() - 1), p);
    }
  } catch (...) {
    for (int fd : m_fds)
      close(fd);
    throw;
  }
}

file_table::~file_table() {
  for (int fd : m_fds)
    close(fd);
}

void drop_cached(int fd, std::uint64_t offset, std::uint64_t bytes) {
  posix_fadvise(fd, static_cast<off_t>(offset), static_cast<off_t>(bytes), POSIX_FADV_DONTNEED);
}

void drop_cached_file(const std::string& path) {
  int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd >= 0) {
    drop_cached(fd, 0, 0);
    close(fd);
  }
}

bool dontcache_supported(const std::string& path, int flags) {
  int fd = open_noatime(path.c_str(), flags);
  if (fd < 0)
    return false;
  void* buf = std::aligned_alloc(4096, 4096);
  iovec iov{buf, 4096};
  const ssize_t n = preadv2(fd, &iov, 1, 0, kRwfDontcache);
  const bool ok = n >= 0;
  std::free(buf);
  close(fd);
  return ok;
}

} // namespace dlsize::io
