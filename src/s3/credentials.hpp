#pragma once
// The keys an S3 request is signed with. They are kept out of every message, report and log:
// only the access key id may be named, and even that only by its first four characters.
#include <functional>
#include <string>

namespace dlsize::s3 {

// What dlsize reads of its environment: the process's (s3/aws_settings.hpp), or a map in tests.
using environment = std::function<std::string(const char* name)>;
// The process's environment (an empty variable reads as unset).
environment process_environment();

struct credentials {
  std::string access_key;
  std::string secret_key;
  std::string session_token; // empty unless temporary credentials

  // Reads AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY and AWS_SESSION_TOKEN (optional) of env;
  // throws usage_error naming the variable that is missing or empty (never a value).
  static credentials from_environment(const environment& env = process_environment());

  // The access key id as it may appear in a message: "AKIA…" (four characters and an ellipsis).
  std::string access_key_hint() const;
};

} // namespace dlsize::s3
