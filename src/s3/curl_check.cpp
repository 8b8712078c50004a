#include "s3/curl_check.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace dlsize::s3 {

void throw_curl_error(const char* call, CURLcode rc, const char* file, int line,
                      const std::string& context) {
  // The location goes with the call, as in a syscall's message (core/error.cpp).
  std::string msg = fmt::format("{} (at {}:{}) failed: {} (curl {})", call, file, line,
                                curl_easy_strerror(rc), static_cast<int>(rc));
  if (!context.empty())
    msg += "; " + context;
  throw run_error(msg);
}

} // namespace dlsize::s3
