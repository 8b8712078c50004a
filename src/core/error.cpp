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
  // The location goes with the call, so that the message ends with what the user can act on.
  std::string msg = fmt::format("{} (at {}:{}) failed: {}", call, file, line, errno_text(err));
  if (!context.empty())
    msg += "; " + context;
  throw run_error(msg);
}

} // namespace dlsize
