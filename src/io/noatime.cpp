#include "io/noatime.hpp"

#include <fcntl.h>

#include <atomic>
#include <cerrno>

namespace dlsize::io {
namespace {

// Process-wide: readers on every thread open files of the same dataset, and whether the kernel
// permits O_NOATIME depends on who owns them, which one refusal tells well enough.
std::atomic<bool> g_permitted{true};

} // namespace

int noatime_flag() {
  return g_permitted.load(std::memory_order_relaxed) ? O_NOATIME : 0;
}

bool noatime_refused(int err, int flags_used) {
  if (err != EPERM || !(flags_used & O_NOATIME))
    return false;
  g_permitted.store(false, std::memory_order_relaxed);
  return true;
}

int open_noatime(const char* path, int flags) {
  const int tried = flags | noatime_flag();
  int fd = open(path, tried);
  if (fd < 0 && noatime_refused(errno, tried))
    fd = open(path, flags);
  return fd;
}

} // namespace dlsize::io
