#include "core/error.hpp"

#include <cstring>

namespace dlsize {

std::string errno_text(int err) {
  char buf[256];
  // GNU strerror_r returns the message, which may or may not be buf.
  return std::string(strerror_r(err, buf, sizeof buf));
}

void throw_syscall_error(const char* call, int err, const char* file, int line,
                         const std::string& context) {
  std::string msg = fmt::format("{} failed: {}. at {}:{}", call, errno_text(err), file, line);
  if (!context.empty())
    msg += "; " + context;
  throw run_error(msg);
}

} // namespace dlsize
