// Unit tests for src/s3/retry.hpp: the one retry policy of every S3 request (backoff, its cap and
// jitter, the budget in tries and in time) and the one classification of S3 failures.
#include <string>

#include <catch2/catch.hpp>

#include "s3/retry.hpp"
#include "s3/s3_error.hpp"
#include "test_support.hpp"

namespace s3 = dlsize::s3;
using Catch::Contains;

namespace {

constexpr std::uint64_t kRetryTop = ~std::uint64_t{0};
constexpr std::uint64_t kRetryMs = 1'000'000;

s3::failure failed_answer(long status, const std::string& code,
                          const std::string& server_bucket = "") {
  s3::failure f;
  f.method = "GET";
  f.bucket = "data";
  f.key = "r50/dlsize-dataset.json";
  f.endpoint = "http://127.0.0.1:7480";
  f.http_status = status;
  f.code = code;
  f.server_bucket = server_bucket;
  return f;
}

s3::failure transport_failure(const std::string& word) {
  s3::failure f = failed_answer(0, "");
  f.transport = word;
  return f;
}

} // namespace

TEST_CASE("S3 retries back off exponentially up to the cap, with full jitter", "[s3][retry]") {
  const s3::retry_policy p{.max_retries = 9, .base_ns = 25 * kRetryMs, .cap_ns = 2000 * kRetryMs};
  CHECK(s3::backoff_ns(p, 1, 0) == 0);
  CHECK(s3::backoff_ns(p, 1, kRetryTop) ==
        25 * kRetryMs - 1); // the first wait: just under the base
  CHECK(s3::backoff_ns(p, 4, kRetryTop) == 200 * kRetryMs - 1);  // base × 2^3
  CHECK(s3::backoff_ns(p, 8, kRetryTop) == 2000 * kRetryMs - 1); // 3.2 s capped at 2 s
  CHECK(s3::backoff_ns(p, 64, kRetryTop) == 2000 * kRetryMs - 1);
  CHECK(s3::backoff_ns(p, 4, kRetryTop / 2) ==
        100 * kRetryMs - 1); // uniform: half the draw, half the ceiling
}

TEST_CASE("the jitter of every S3 backoff stays below its ceiling and spreads over it",
          "[s3][retry]") {
  const s3::retry_policy p{};
  std::uint64_t lo = kRetryTop, hi = 0, x = 1;
  for (int i = 0; i < 2000; ++i) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    const std::uint64_t w = s3::backoff_ns(p, 3, x);
    REQUIRE(w < 100 * kRetryMs);
    lo = std::min(lo, w), hi = std::max(hi, w);
  }
  CHECK(lo < 10 * kRetryMs); // full jitter: waits near 0 and near the ceiling both occur
  CHECK(hi > 90 * kRetryMs);
}

TEST_CASE("an S3 request gets at most --s3-max-retries retries", "[s3][retry]") {
  const s3::retry_policy p{.max_retries = 3, .budget_ns = 3600'000 * kRetryMs};
  s3::retry_clock clock(p, 0);
  std::uint64_t now = 0;
  for (int i = 0; i < 3; ++i) {
    const auto w = clock.next_wait(now, kRetryTop);
    REQUIRE(w.has_value());
    now += *w;
  }
  CHECK_FALSE(clock.next_wait(now, kRetryTop).has_value());
  CHECK(clock.failed() == 4);
  CHECK_THAT(clock.spent(now), Contains("after 4 tries") && Contains("--s3-max-retries 3"));
}

TEST_CASE("an S3 request is retried no longer than --s3-retry-budget from its first try",
          "[s3][retry]") {
  const s3::retry_policy p{.max_retries = 1000, .budget_ns = 5000 * kRetryMs};
  s3::retry_clock clock(p, 1000 * kRetryMs);
  // A try that failed 4.9 s after the first began: a wait of up to 0.1 s still fits.
  CHECK(clock.next_wait(5900 * kRetryMs, 0).has_value());
  // One failing at 5.1 s does not get another try, however short the wait.
  CHECK_FALSE(clock.next_wait(6100 * kRetryMs, 0).has_value());
  CHECK_THAT(clock.spent(6100 * kRetryMs),
             Contains("in 5.1 s") && Contains("--s3-retry-budget 5s"));
  // A wait that would end past the budget is not taken either.
  s3::retry_clock late(p, 0);
  CHECK_FALSE(late.next_wait(4990 * kRetryMs, kRetryTop).has_value());
}

TEST_CASE("S3 failures a retry may cure are told from the user's mistakes and the run's",
          "[s3][retry][errors]") {
  for (long status : {500L, 502L, 503L, 504L}) {
    const auto v = s3::classify(failed_answer(status, status == 503 ? "SlowDown" : ""));
    CHECK(v.kind == s3::failure_class::retry);
    CHECK(v.cause == std::to_string(status));
  }
  for (const char* word : {"reset", "timeout", "connect", "cut", "long"}) {
    const auto v = s3::classify(transport_failure(word));
    CHECK(v.kind == s3::failure_class::retry);
    CHECK(v.cause == word);
  }
  CHECK(s3::classify(failed_answer(400, "RequestTimeout")).kind == s3::failure_class::retry);
  // A failure of the run: another try would not cure it, and it is not the command line's.
  CHECK(s3::classify(failed_answer(404, "NoSuchKey")).kind == s3::failure_class::run);
  CHECK(s3::classify(failed_answer(409, "BucketNotEmpty")).kind == s3::failure_class::run);
  CHECK(s3::classify(transport_failure("")).kind == s3::failure_class::run);
  CHECK(s3::classify(transport_failure("tls")).kind == s3::failure_class::run);
  CHECK_THAT(s3::classify(transport_failure("tls")).hint, Contains("--s3-ca-bundle"));
}

TEST_CASE("each S3 usage error says what to fix", "[s3][retry][errors]") {
  const auto usage = [](const s3::failure& f) {
    const auto v = s3::classify(f);
    CHECK(v.kind == s3::failure_class::usage);
    return v.hint;
  };
  CHECK_THAT(usage(failed_answer(404, "NoSuchBucket", "data")),
             Contains("no bucket 'data'") && !Contains("addressing"));
  CHECK_THAT(usage(failed_answer(404, "NoSuchBucket")), Contains("no bucket 'data'"));
  CHECK_THAT(usage(failed_answer(404, "NoSuchBucket", "r50")),
             Contains("bucket 'r50', not 'data'") && Contains("--s3-addressing"));
  CHECK_THAT(usage(failed_answer(403, "AccessDenied")), Contains("permissions"));
  CHECK_THAT(usage(failed_answer(403, "SignatureDoesNotMatch")), Contains("AWS_SECRET_ACCESS_KEY"));
  CHECK_THAT(usage(failed_answer(403, "InvalidAccessKeyId")), Contains("AWS_ACCESS_KEY_ID"));
  CHECK_THAT(usage(failed_answer(400, "AuthorizationHeaderMalformed")), Contains("--s3-region"));
  CHECK_THAT(usage(failed_answer(301, "PermanentRedirect")), Contains("--s3-region"));
  CHECK_THAT(usage(transport_failure("certificate")), Contains("--s3-ca-bundle"));
  CHECK_THAT(usage(transport_failure("resolve")), Contains("--s3-endpoint") && Contains("virtual"));
}

TEST_CASE("a missing bucket throws a usage error whose message holds the hint, no kernel",
          "[s3][retry][errors]") {
  const auto f = s3::failure_from_answer(
      "GET", "data", "r50/dlsize-dataset.json", "http://127.0.0.1:7480", 404,
      "<Error><Code>NoSuchBucket</Code><BucketName>r50</BucketName></Error>");
  CHECK(f.server_bucket == "r50");
  const std::string message = dlsize::test::usage_error_message([&] { s3::throw_failure(f); });
  CHECK_THAT(message, Contains("S3 GET failed: HTTP 404 NoSuchBucket") &&
                          Contains("endpoint: http://127.0.0.1:7480") &&
                          Contains("--s3-addressing") && !Contains("kernel") &&
                          !Contains("not a dlsize dataset"));
}

TEST_CASE("libcurl's results map to the transport words the policy knows", "[s3][retry]") {
  CHECK(s3::transport_of(7) == "connect");      // CURLE_COULDNT_CONNECT
  CHECK(s3::transport_of(28) == "timeout");     // CURLE_OPERATION_TIMEDOUT
  CHECK(s3::transport_of(56) == "reset");       // CURLE_RECV_ERROR
  CHECK(s3::transport_of(52) == "reset");       // CURLE_GOT_NOTHING
  CHECK(s3::transport_of(18) == "cut");         // CURLE_PARTIAL_FILE
  CHECK(s3::transport_of(60) == "certificate"); // CURLE_PEER_FAILED_VERIFICATION
  CHECK(s3::transport_of(6) == "resolve");      // CURLE_COULDNT_RESOLVE_HOST
  CHECK(s3::transport_of(3) == "");             // CURLE_URL_MALFORMAT: no try cures it
}
