#pragma once
// Every libcurl call that returns a CURLcode is checked through DLSIZE_CURL, which records the
// call's text and location. A call's text never holds a credential's value, only the name of
// the variable passed.
#include <string>

#include <curl/curl.h>

namespace dlsize::s3 {

// Throws run_error: "CALL failed: curl's text (curl N). at file:line; CONTEXT".
[[noreturn]] void throw_curl_error(const char* call, CURLcode rc, const char* file, int line,
                                   const std::string& context);

} // namespace dlsize::s3

#define DLSIZE_CURL(call, context)                                                                 \
  do {                                                                                             \
    const CURLcode dlsize_curl_rc_ = (call);                                                       \
    if (dlsize_curl_rc_ != CURLE_OK)                                                               \
      ::dlsize::s3::throw_curl_error(#call, dlsize_curl_rc_, __FILE__, __LINE__, (context));       \
  } while (0)
