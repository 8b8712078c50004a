#pragma once
// What S3 requests asked of the server: requests (every try), body bytes, retries by cause,
// failures by cause, time to first byte and whole-request latency, connections opened. Kept per
// reader thread, writer or client, merged without loss (sums and histograms) over them and over
// ranks; the report's storage.s3 and checkpoint.s3 blocks are made from it.
#include <cstdint>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "core/histogram.hpp"

namespace dlsize::s3 {

struct transfer_stats {
  std::uint64_t requests = 0;    // tries answered or failed, retries included
  std::uint64_t bytes = 0;       // body bytes handed on (sent, for uploads)
  std::uint64_t retries = 0;     // requests sent again after a retryable failure
  std::uint64_t errors = 0;      // requests that failed (retries spent, or not retryable)
  std::uint64_t connections = 0; // connections opened (CURLINFO_NUM_CONNECTS, summed)
  // Retries by cause (s3::classify's words): the HTTP status ("500", "503") or the transport's
  // ("reset", "timeout", "connect", "cut", "long"); failures by the same words ("404", ...).
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

// The figures of every synchronous client of this process that has ended (each client adds its
// own as it is destroyed): the requests besides a run's data (a manifest's GET, a checkpoint's
// claim, seal and deletes), for the report. Any thread.
void add_client_figures(const transfer_stats& xs);
transfer_stats client_figures();

// "412 requests, 3 retried (503: 2, reset: 1)", for a command's closing line.
std::string requests_text(const transfer_stats& xs);

} // namespace dlsize::s3
