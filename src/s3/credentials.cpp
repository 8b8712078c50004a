#include "s3/credentials.hpp"

#include <cstdlib>

#include <fmt/format.h>

#include "core/error.hpp"

namespace dlsize::s3 {

environment process_environment() {
  return [](const char* name) {
    const char* v = std::getenv(name);
    return v ? std::string(v) : std::string();
  };
}

credentials credentials::from_environment(const environment& env) {
  credentials c;
  c.access_key = env("AWS_ACCESS_KEY_ID");
  c.secret_key = env("AWS_SECRET_ACCESS_KEY");
  c.session_token = env("AWS_SESSION_TOKEN");
  for (const auto& [name, value] :
       {std::pair<const char*, const std::string&>{"AWS_ACCESS_KEY_ID", c.access_key},
        {"AWS_SECRET_ACCESS_KEY", c.secret_key}})
    if (value.empty())
      throw usage_error(
          fmt::format("no S3 credentials: {} is not set. valid: set "
                      "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and "
                      "AWS_SESSION_TOKEN for temporary credentials), or name a profile of "
                      "~/.aws/credentials with --s3-profile",
                      name));
  return c;
}

std::string credentials::access_key_hint() const {
  return access_key.substr(0, 4) + "\u2026";
}

} // namespace dlsize::s3
