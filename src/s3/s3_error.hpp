#pragma once
// Errors of S3 requests. Each names the request (method, bucket, key, endpoint), the HTTP status
// and the S3 error Code and Message of the body, or curl's reason when no answer came; never a
// credential. A refusal of the credentials (HTTP 403) is the user's to fix (usage_error, exit 2);
// every other failure is a run_error. Callers that act on the status (404, 503) catch s3_error.
#include <string>
#include <string_view>

#include "core/error.hpp"

namespace dlsize::s3 {

// What failed, for the message and for callers.
struct failure {
  std::string method;
  std::string bucket;
  std::string key;
  std::string endpoint;
  long http_status = 0; // 0: no HTTP answer (connection, TLS, timeout, a callback's abort)
  std::string code;     // S3's error Code (NoSuchKey, SlowDown, ...); may be empty
  std::string message;  // S3's error Message, or the transport's reason
};

// The part every S3 exception shares: the failure it describes.
class s3_error {
public:
  explicit s3_error(failure f) : m_failure(std::move(f)) {}
  virtual ~s3_error() = default;
  const failure& details() const { return m_failure; }

private:
  failure m_failure;
};

class request_error : public run_error, public s3_error {
public:
  explicit request_error(failure f);
};

class access_denied : public usage_error, public s3_error {
public:
  explicit access_denied(failure f);
};

// The message: "S3 GET failed: HTTP 404 NoSuchKey (The specified key does not exist.). bucket: b;
// key: k; endpoint: http://..."; a 403 adds what to check.
std::string failure_text(const failure& f);

// The failure of an answer with an error status: Code and Message read from the XML body
// (S3's <Error> document), control characters and excess length removed.
failure failure_from_answer(std::string_view method, std::string_view bucket, std::string_view key,
                            std::string_view endpoint, long http_status, std::string_view body);

// Throws access_denied for HTTP 403, request_error otherwise.
[[noreturn]] void throw_failure(failure f);

} // namespace dlsize::s3
