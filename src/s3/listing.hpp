#pragma once
// Listing a bucket with the synchronous client: pages of ListObjectsV2, and the retries of the
// client's requests. A retryable failure (HTTP 500, 502,
// 503 SlowDown, 504, or no answer: a reset or timeout) is tried again after the engine's capped,
// jittered backoff (s3::backoff_ns), at most retry_policy::max_attempts tries, each counted.
#include <atomic>
#include <cstdint>
#include <string_view>

#include "s3/client.hpp"
#include "s3/s3_error.hpp"
#include "s3/transfer_stats.hpp"

namespace dlsize::s3 {

// Whether a failure is worth another try (the engine's rule for GETs).
bool retryable(const failure& f);

// Sleeps the backoff before try failed + 1.
void wait_before_retry(const retry_policy& p, unsigned failed);

// call() and, after each retryable request_error, call() again until it succeeds or the tries
// run out (the last error is thrown then); retries counts the tries after the first.
template <class F>
auto with_retries(const retry_policy& p, std::atomic<std::uint64_t>& retries, F&& call) {
  for (unsigned failed = 0;; ++failed) {
    try {
      return call();
    } catch (const request_error& e) {
      if (!retryable(e.details()) || failed + 1 >= p.max_attempts)
        throw;
    }
    ++retries;
    wait_before_retry(p, failed + 1);
  }
}

// One page of ListObjectsV2 (as client::list_objects), retried as with_retries does.
list_page list_page_retried(client& c, std::string_view bucket, std::string_view prefix,
                            std::string_view token, std::string_view delimiter,
                            std::atomic<std::uint64_t>& retries, const retry_policy& policy = {});

} // namespace dlsize::s3
