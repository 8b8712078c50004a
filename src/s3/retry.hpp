#pragma once
// The one retry policy of every S3 request dlsize makes (the synchronous client's requests, the
// reader's GETs, the writer's multipart requests), and the one classification of S3 failures.
// A failure is either cured by another try (500, 502, 503 SlowDown, 504, a reset, a timeout, a
// body cut short or longer than asked), the user's to fix (exit 2: no such bucket, access
// denied, a wrong region, a signature mismatch, addressing that does not match the server, a TLS
// certificate not trusted; each with a hint), or a failure of the run (exit 1). Retries wait a
// capped exponential backoff with full jitter, and stop at a number of tries or at a time budget
// per request, whichever comes first. Plain code, built with or without libcurl.
#include <cstdint>
#include <optional>
#include <string>

#include "s3/s3_error.hpp"
#include "s3/transfer_stats.hpp"

namespace dlsize::s3 {

// When to retry and how long to wait: after the first try of a request at most max_retries more,
// none starting later than budget_ns after the first began; the wait before try n+2 is uniform
// in [0, min(cap, base × 2^n)).
struct retry_policy {
  unsigned max_retries = 9;                 // --s3-max-retries
  std::uint64_t budget_ns = 30'000'000'000; // --s3-retry-budget (30 s)
  std::uint64_t base_ns = 25'000'000;       // 25 ms
  std::uint64_t cap_ns = 2'000'000'000;     // 2 s
};

// The wait before the next try after `failed` failed tries (1 for the first retry), from a
// uniform random 64-bit `random`.
std::uint64_t backoff_ns(const retry_policy& p, unsigned failed, std::uint64_t random);

// One request's tries under the policy: after each failure, whether another try may go and
// after what wait. A request whose failures stop (an answer, bytes that move) starts a new clock.
class retry_clock {
public:
  retry_clock() = default;
  retry_clock(const retry_policy& p, std::uint64_t first_try_ns)
      : m_policy(p), m_first_ns(first_try_ns) {}
  // After a failed try at now: the wait before the next, or nullopt when the tries are spent or
  // the next try would begin past the time budget.
  std::optional<std::uint64_t> next_wait(std::uint64_t now, std::uint64_t random);
  unsigned failed() const { return m_failed; }
  // "after 10 tries" or "after 4 tries in 30.1 s (--s3-retry-budget 30s)", for a final message.
  std::string spent(std::uint64_t now) const;

private:
  retry_policy m_policy;
  std::uint64_t m_first_ns = 0;
  unsigned m_failed = 0;
};

// How dlsize takes a failed request.
enum class failure_class {
  retry, // another try may cure it
  usage, // the user's to fix: exit 2
  run,   // a failure of the run: exit 1
};

struct failure_verdict {
  failure_class kind = failure_class::run;
  std::string cause; // the word retries and errors are counted under ("503", "reset", "404")
  std::string hint;  // what to check, for a usage error ("" when none)
};

// The verdict on a failure: its transport word first (a reset, a timeout, a TLS refusal), then
// its HTTP status and S3 Code.
failure_verdict classify(const failure& f);

// Whether figures hold a request that failed after its retries (a retryable cause among the
// errors): the server stopped answering, or answered only with failures, for a whole budget.
bool gave_up_retrying(const transfer_stats& xs);

// The transport word of a libcurl result (CURLcode, by its value): "timeout", "connect",
// "reset", "cut", "resolve", "tls", "certificate", "" for the others (a bad URL, a callback's
// abort). The values are libcurl's ABI; s3/easy_setup.cpp checks them against its header.
std::string transport_of(int curl_code);

} // namespace dlsize::s3
