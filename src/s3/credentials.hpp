#pragma once
// The keys an S3 request is signed with. They are kept out of every message, report and log:
// only the access key id may be named, and even that only by its first four characters.
#include <string>

namespace dlsize::s3 {

struct credentials {
  std::string access_key;
  std::string secret_key;
  std::string session_token; // empty unless temporary credentials

  // Reads AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN (optional); throws
  // usage_error naming the variable that is missing or empty (never a value).
  static credentials from_environment();

  // The access key id as it may appear in a message: "AKIA…" (four characters and an ellipsis).
  std::string access_key_hint() const;
};

} // namespace dlsize::s3
