#include "core/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include <fmt/format.h>

#include "core/error.hpp"

namespace dlsize {
namespace fs = std::filesystem;

void write_file_atomic(const fs::path& path, std::string_view content, bool replace_own) {
  fs::path dir = path.parent_path();
  if (dir.empty())
    dir = ".";
  std::string tmpl = (dir / ("." + path.filename().string() + ".XXXXXX")).string();
  int fd = mkstemp(tmpl.data());
  if (fd < 0)
    throw_syscall_error("mkstemp", errno, __FILE__, __LINE__, "path: " + tmpl);
  const std::string tmp = tmpl;
  auto fail = [&](const char* call, int err) {
    close(fd);
    unlink(tmp.c_str());
    throw_syscall_error(call, err, __FILE__, __LINE__, "path: " + path.string());
  };
  fchmod(fd, 0644);
  std::size_t done = 0;
  while (done < content.size()) {
    ssize_t n = write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      fail("write", errno);
    }
    done += static_cast<std::size_t>(n);
  }
  if (fsync(fd) != 0)
    fail("fsync", errno);
  close(fd);
  if (replace_own) {
    if (rename(tmp.c_str(), path.c_str()) != 0) {
      int err = errno;
      unlink(tmp.c_str());
      throw_syscall_error("rename", err, __FILE__, __LINE__, "path: " + path.string());
    }
  } else if (link(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    unlink(tmp.c_str());
    if (err == EEXIST)
      throw usage_error(fmt::format("'{}' exists; dlsize never overwrites a file", path.string()));
    throw_syscall_error("link", err, __FILE__, __LINE__, "path: " + path.string());
  } else {
    unlink(tmp.c_str());
  }
  int dfd = open(dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (dfd >= 0) {
    fsync(dfd);
    close(dfd);
  }
}

std::string read_text_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw usage_error(fmt::format("cannot read '{}': {}", path.string(), errno_text(errno)));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

} // namespace dlsize
