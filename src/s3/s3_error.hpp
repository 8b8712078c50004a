#pragma once
// Errors of S3 requests. Each names the request (method, bucket, key, endpoint), the HTTP status
// and the S3 error Code and Message of the body, or curl's reason when no answer came; never a
// credential. What the user must fix (s3::classify: no such bucket, access denied, a wrong
// region or addressing, a signature mismatch, an untrusted certificate) is a request_refused
// (usage_error, exit 2) with a hint; every other failure is a request_error (run_error, exit 1).
// Callers that act on the status (404) catch request_error.
#include <string>
#include <string_view>

#include "core/error.hpp"

namespace dlsize::s3 {

// What failed, for the message and for callers.
struct failure {
  std::string method = {};
  std::string bucket = {};
  std::string key = {};
  std::string endpoint = {};
  long http_status = 0;     // 0: no HTTP answer (connection, TLS, timeout, a callback's abort)
  std::string code = {};    // S3's error Code (NoSuchKey, SlowDown, ...); may be empty
  std::string message = {}; // S3's error Message, or the transport's reason
  // The transport's failure as s3::transport_of names it ("reset", "timeout", "cut", "long",
  // "tls", ...); "" when an answer came whole.
  std::string transport = {};
  std::string server_bucket = {}; // the <BucketName> of S3's error body, when it has one
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

class request_refused : public usage_error, public s3_error {
public:
  explicit request_refused(failure f);
};

// The message: "S3 GET failed: HTTP 404 NoSuchKey (The specified key does not exist.). bucket: b;
// key: k; endpoint: http://..."; a failure the user must fix adds what to check.
std::string failure_text(const failure& f);

// The failure of an answer with an error status: Code and Message read from the XML body
// (S3's <Error> document), control characters and excess length removed.
failure failure_from_answer(std::string_view method, std::string_view bucket, std::string_view key,
                            std::string_view endpoint, long http_status, std::string_view body);

// Throws request_refused for what the user must fix (s3::classify), request_error otherwise.
[[noreturn]] void throw_failure(failure f);

} // namespace dlsize::s3
