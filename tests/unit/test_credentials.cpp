// Unit tests for src/s3/credentials.hpp: keys from the environment, a missing one named.
#include <stdlib.h>

#include <string>

#include <catch2/catch.hpp>

#include "s3/credentials.hpp"
#include "test_support.hpp"

using dlsize::test::usage_error_message;
namespace s3 = dlsize::s3;

TEST_CASE("credentials come from the environment and a missing one is named", "[s3][errors]") {
  ::setenv("AWS_ACCESS_KEY_ID", "AKIAEXAMPLE", 1);
  ::setenv("AWS_SECRET_ACCESS_KEY", "s3cr3t/+value", 1);
  ::unsetenv("AWS_SESSION_TOKEN");
  const auto c = s3::credentials::from_environment();
  CHECK(c.access_key == "AKIAEXAMPLE");
  CHECK(c.secret_key == "s3cr3t/+value");
  CHECK(c.session_token.empty());
  CHECK(c.access_key_hint() == "AKIA\u2026");
  ::unsetenv("AWS_SECRET_ACCESS_KEY");
  const std::string message = usage_error_message([] { s3::credentials::from_environment(); });
  CHECK_THAT(message, Catch::Contains("AWS_SECRET_ACCESS_KEY is not set"));
  CHECK_THAT(message, !Catch::Contains("AKIAEXAMPLE"));
  ::unsetenv("AWS_ACCESS_KEY_ID");
}
