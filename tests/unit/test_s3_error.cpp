// Unit tests for src/s3/s3_error.hpp: a failed request's message, and which failures are the
// user's to fix.
#include <string>

#include <catch2/catch.hpp>

#include "s3/s3_error.hpp"
#include "test_support.hpp"

using dlsize::test::usage_error_message;
namespace s3 = dlsize::s3;

TEST_CASE("a failed request's message names the request, the status and S3's error code",
          "[s3][errors]") {
  const auto f = s3::failure_from_answer(
      "GET", "data", "train/a", "http://127.0.0.1:7480", 404,
      "<?xml version=\"1.0\"?><Error><Code>NoSuchKey</Code><Message>The key\ndoes not exist"
      "</Message><BucketName>data</BucketName></Error>");
  CHECK(f.code == "NoSuchKey");
  CHECK(s3::failure_text(f) == "S3 GET failed: HTTP 404 NoSuchKey (The key does not exist). "
                               "bucket: data; key: train/a; endpoint: http://127.0.0.1:7480");
  CHECK_THROWS_AS(s3::throw_failure(f), s3::request_error);
  try {
    s3::throw_failure(f);
  } catch (const s3::s3_error& e) {
    CHECK(e.details().http_status == 404);
  }
}

TEST_CASE("a refused signature is a usage error that says what to check", "[s3][errors]") {
  const auto f = s3::failure_from_answer(
      "PUT", "data", "k", "http://h:1", 403,
      "<Error><Code>SignatureDoesNotMatch</Code><RequestId>tx1</RequestId></Error>");
  const std::string message = usage_error_message([&] { s3::throw_failure(f); });
  CHECK_THAT(message, Catch::Contains("S3 PUT failed: HTTP 403 SignatureDoesNotMatch") &&
                          Catch::Contains("AWS_SECRET_ACCESS_KEY") &&
                          Catch::Contains("never shown"));
  const auto no_body = s3::failure_from_answer("HEAD", "data", "k", "http://h:1", 403, "");
  CHECK_THAT(s3::failure_text(no_body),
             Catch::Contains("HTTP 403. bucket: data") && Catch::Contains("AWS_ACCESS_KEY_ID"));
}
