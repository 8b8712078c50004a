#pragma once
// The fallback engine: each reader thread reads its job with pread (preadv2 for uncached),
// one request at a time, as fio's psync engine does. queue_depth does not apply.
#include <cstddef>
#include <functional>
#include <string>

#include "io/basic_engine.hpp"

namespace dlsize::io {

class rate_limiter;
class reader_guard;

class psync_engine : public basic_engine {
public:
  using basic_engine::basic_engine;
  std::string name() const override { return "psync"; }
  engine_result run(job_source& source, job_consumer& consumer,
                    const std::atomic<bool>& stop) override;

private:
  // What every reader of one run shares.
  struct run_context {
    job_source& source;
    job_consumer& consumer;
    rate_limiter& limiter;
    std::uint32_t request_size;   // the limiter's chunk of --request-size
    std::function<bool()> halted; // a stop, or another reader failed
  };
  // One reader's place: its id, its pool guard and its stats.
  struct reader_place {
    unsigned id;
    reader_guard& guard;
    reader_stats& st;
  };
  // How one job went.
  struct job_state {
    std::string error;
    bool interrupted = false; // abandoned at a stop
    bool skip = false;        // a file changed since indexing, skipped
    std::uint64_t bytes = 0;
  };

  // Each of these returns false when the pool abandoned the reader during a blocking call: it
  // must then return at once, touching nothing shared.
  bool read_jobs(const run_context& c, const reader_place& r);
  bool open_job(const reader_place& r, std::uint32_t file, int& fd, int& open_errno,
                std::string& error);
  bool read_job_range(const run_context& c, const reader_place& r, const read_job& job, int fd,
                      std::byte* buf, job_state& js);
  bool fill_request(const reader_place& r, const read_job& job, int fd, std::uint64_t pos,
                    std::size_t len, std::byte* buf, std::size_t& filled, std::string& error);
};

} // namespace dlsize::io
