#include "s3/curl_check.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace dlsize::s3 {

void throw_curl_error(const char* call, CURLcode rc, const char* file, int line,
                      const std::string& context) {
  std::string msg = fmt::format("{} failed: {} (curl {}). at {}:{}", call, curl_easy_strerror(rc),
                                static_cast<int>(rc), file, line);
  if (!context.empty())
    msg += "; " + context;
  throw run_error(msg);
}

} // namespace dlsize::s3
