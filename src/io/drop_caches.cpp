#include "io/drop_caches.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <fcntl.h>
#include <unistd.h>

#include <fmt/format.h>

#include "core/error.hpp"

namespace dlsize::io {

std::string drop_caches_file() {
  const char* f = std::getenv("DLSIZE_DROP_CACHES_FILE");
  return f && *f ? f : "/proc/sys/vm/drop_caches";
}

std::string drop_caches_refusal() {
  const std::string file = drop_caches_file();
  if (geteuid() != 0)
    return fmt::format("not root (euid {}); dropping caches needs root", geteuid());
  if (access(file.c_str(), W_OK) != 0)
    return fmt::format("{} is not writable ({})", file, std::strerror(errno));
  return "";
}

void drop_caches() {
  const std::string file = drop_caches_file();
  sync(); // dirty pages are not dropped: write them out first
  const int fd = open(file.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0 || write(fd, "3\n", 2) != 2) {
    const int err = errno;
    if (fd >= 0)
      close(fd);
    throw run_error(fmt::format("dropping the page cache failed. file: {}; error: {}", file,
                                std::strerror(err)));
  }
  close(fd);
}

} // namespace dlsize::io
