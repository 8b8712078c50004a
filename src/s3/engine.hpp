#pragma once
// The `s3` engine: the reader threads of an S3 dataset. file_set.paths are object keys of one
// bucket. Each reader thread drives up to --queue-depth GETs at once on its own curl multi
// handle, over kept-alive connections (an easy handle per slot, reused; endpoints taken
// round-robin per slot): a whole-object GET when a job is a whole object, else a byte-range GET.
// Bodies go from curl's receive buffer straight to the consumer's on_data, in order per job.
// 500, 502, 503, 504 answers, resets and timeouts are retried with capped exponential backoff
// and full jitter (retry_policy), every retry counted; a retry resumes after the bytes already
// handed on. --max-read-rate, the stop flag and stuck_read work as for files. Built only with
// libcurl (DLSIZE_HAVE_S3). The transfer loop takes a method per request, ready for writes.
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "io/engine.hpp"
#include "io/inflight_board.hpp"
#include "s3/client.hpp"
#include "s3/credentials.hpp"
#include "s3/transfer_stats.hpp"

namespace dlsize::s3 {

// Where the engine reads: the bucket, the options of each endpoint (one client_options each;
// connections take them round-robin), the keys and the retry rules.
struct engine_target {
  std::string bucket;
  std::vector<client_options> endpoints;
  credentials keys;
  retry_policy retry;
};

class engine : public io::engine {
public:
  // Throws usage_error for a target build_request refuses (bucket, endpoint, region) or without
  // an endpoint.
  engine(const io::engine_options& opt, const io::file_set& files, engine_target target);
  ~engine() override;
  std::string name() const override { return "s3"; }
  io::engine_result run(io::job_source& source, io::job_consumer& consumer,
                        const std::atomic<bool>& stop) override;
  // "reader 0 has waited 3.2 s for a read of s3://BUCKET/KEY at offset O (L bytes)".
  std::string stuck_read(std::uint64_t min_age_ns) const override;
  // Every reader's figures of the last run, merged.
  transfer_stats stats() const;
  const engine_target& target() const { return m_target; }

  struct reader; // one reader thread's multi handle and slots (engine.cpp)

private:
  io::engine_options m_opt;
  const io::file_set& m_files;
  engine_target m_target;
  io::inflight_board m_inflight;
  mutable std::mutex m_mutex;
  transfer_stats m_stats; // merged as readers end
};

} // namespace dlsize::s3
