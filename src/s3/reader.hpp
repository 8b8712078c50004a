#pragma once
// The `s3` read engine: the reader threads of an S3 dataset. file_set.paths are object keys of
// one bucket. Each reader thread drives up to --queue-depth GETs at once on its own curl multi
// handle, over kept-alive connections (an easy handle per slot, reused; endpoints taken
// round-robin per slot): a whole-object GET when a job is a whole object, else a byte-range GET.
// Bodies go from curl's receive buffer straight to the consumer's on_data, in order per job.
// Failures are retried under the target's retry policy (s3/retry.hpp), every retry counted by
// cause; a retry resumes after the bytes already handed on. Progress means bytes: a job counts
// as waiting from its last byte, however many tries fail meanwhile, so the stall watch sees a
// server that answers only with failures; and once every request has failed for the retry
// budget with no byte moving, the run fails naming the endpoint and the last error.
// --max-read-rate, the stop flag and stuck_read work as for files. Built only with libcurl
// (DLSIZE_HAVE_S3).
#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>

#include "io/engine.hpp"
#include "io/inflight_board.hpp"
#include "s3/target.hpp"
#include "s3/transfer_stats.hpp"

namespace dlsize::s3 {

class reader : public io::engine {
public:
  // Throws usage_error for a target build_request refuses (bucket, endpoint, region) or without
  // an endpoint.
  reader(const io::engine_options& opt, const io::file_set& files, target where);
  ~reader() override;
  std::string name() const override { return "s3"; }
  io::engine_result run(io::job_source& source, io::job_consumer& consumer,
                        const std::atomic<bool>& stop) override;
  // "reader 0 has waited 3.2 s for a read of s3://BUCKET/KEY at offset O (L bytes)", the wait
  // counted from the job's last byte; while tries fail, the last failure too.
  std::string stuck_read(std::uint64_t min_age_ns) const override;
  // Every reader's figures of the last run, merged.
  transfer_stats stats() const;
  const target& where() const { return m_target; }

  struct reader_thread; // one reader thread's multi handle and slots (reader.cpp)

private:
  // A try that began at try_t0 failed with a retryable cause at now: the failure is kept for
  // messages, and the time since every request began failing is returned (0 when bytes moved
  // since the last), counted from the start of the first failed try (a frozen server's try
  // fails only at its timeout), or from the last byte that moved if later.
  std::uint64_t failing_for(const std::string& failure, std::uint64_t try_t0, std::uint64_t now);
  // Bytes moved at now: whatever failed before, the server answers.
  void moved(std::uint64_t now) {
    m_last_byte_ns.store(now, std::memory_order_relaxed);
    if (m_failing_since.load(std::memory_order_relaxed) != 0)
      m_failing_since.store(0, std::memory_order_relaxed);
  }

  io::engine_options m_opt;
  const io::file_set& m_files;
  target m_target;
  io::inflight_board m_inflight;
  mutable std::mutex m_mutex;
  transfer_stats m_stats;                        // merged as readers end
  std::string m_last_error;                      // the last retryable failure, for stuck_read
  std::atomic<std::uint64_t> m_failing_since{0}; // 0: the last try that ended moved bytes
  std::atomic<std::uint64_t> m_last_byte_ns{0};
};

} // namespace dlsize::s3
