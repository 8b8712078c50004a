#pragma once
// What the reads of an S3 dataset asked of the server: requests, body bytes, retries by cause,
// failures by HTTP status, time to first byte and whole-request latency, connections opened.
// Kept per reader thread, merged without loss (sums and histograms) over readers and ranks;
// the report's storage.s3 block is made from it.
#include <cstdint>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "core/histogram.hpp"

namespace dlsize::s3 {

struct transfer_stats {
  std::uint64_t requests = 0;    // GETs answered or failed, retries included
  std::uint64_t bytes = 0;       // body bytes handed to the consumer
  std::uint64_t retries = 0;     // requests sent again after a retryable failure
  std::uint64_t errors = 0;      // jobs that failed (retries spent, or not retryable)
  std::uint64_t connections = 0; // connections opened (CURLINFO_NUM_CONNECTS, summed)
  // Retries by cause: the HTTP status ("500", "503") or the transport's ("reset", "timeout",
  // "connect"); failures by the same words ("404", "403", "reset", ...).
  std::map<std::string, std::uint64_t> retries_by_cause;
  std::map<std::string, std::uint64_t> errors_by_cause;
  histogram first_byte; // request start to the answer's first byte
  histogram latency;    // request start to its last byte (or its failure)
  std::string server;   // the first answer's Server header ("" when none came)

  void merge(const transfer_stats& other);
  // Lossless (histograms as core/histogram writes them), for carrying between ranks.
  nlohmann::json to_json() const;
  // Throws run_error naming the field when j is not what to_json writes.
  static transfer_stats from_json(const nlohmann::json& j);
};

// When to retry and how long to wait: at most max_attempts tries of one request, the wait before
// try n+1 uniform in [0, min(cap, base × 2^n)) (capped exponential backoff, full jitter).
struct retry_policy {
  unsigned max_attempts = 10;
  std::uint64_t base_ns = 25'000'000;   // 25 ms
  std::uint64_t cap_ns = 2'000'000'000; // 2 s
};

// The wait before the next try after `failed` tries, from a uniform random 64-bit `random`.
std::uint64_t backoff_ns(const retry_policy& p, unsigned failed, std::uint64_t random);

} // namespace dlsize::s3
