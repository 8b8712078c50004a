#include "s3/credentials.hpp"

#include <cstdlib>

#include <fmt/format.h>

#include "core/error.hpp"

namespace dlsize::s3 {

namespace {

std::string environment_value(const char* name) {
  const char* value = std::getenv(name);
  return value == nullptr ? std::string() : std::string(value);
}

} // namespace

credentials credentials::from_environment() {
  credentials c;
  c.access_key = environment_value("AWS_ACCESS_KEY_ID");
  c.secret_key = environment_value("AWS_SECRET_ACCESS_KEY");
  c.session_token = environment_value("AWS_SESSION_TOKEN");
  for (const auto& [name, value] :
       {std::pair<const char*, const std::string&>{"AWS_ACCESS_KEY_ID", c.access_key},
        {"AWS_SECRET_ACCESS_KEY", c.secret_key}})
    if (value.empty())
      throw usage_error(fmt::format("no S3 credentials: {} is not set. valid: set "
                                    "AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and "
                                    "AWS_SESSION_TOKEN for temporary credentials)",
                                    name));
  return c;
}

std::string credentials::access_key_hint() const {
  return access_key.substr(0, 4) + "\u2026";
}

} // namespace dlsize::s3
