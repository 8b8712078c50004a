#pragma once
// The I/O engine: reader threads that take read jobs (a byte range of one file) from a source
// and hand the bytes to a consumer. Two implementations: io_uring (one ring per reader,
// registered buffers and files, batched submission) and psync (pread per reader thread).
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "core/defaults.hpp"
#include "core/enum_names.hpp"
#include "core/histogram.hpp"

namespace dlsize::io {

enum class cache_mode { direct, buffered, uncached };
inline constexpr core::enum_table<cache_mode, 3> kCacheModeNames{
    {{cache_mode::direct, "direct", "O_DIRECT, the default"},
     {cache_mode::buffered, "buffered", "page cache"},
     {cache_mode::uncached, "uncached", "read through the page cache and drop the pages"}}};
constexpr const auto& names_of(cache_mode) {
  return kCacheModeNames;
}
std::string to_string(cache_mode m);
cache_mode parse_cache_mode(const std::string& text);

// One contiguous byte range of one file, read as requests of at most request_size bytes.
struct read_job {
  std::uint32_t file = 0;
  std::uint64_t offset = 0; // where the wanted bytes start
  std::uint64_t length = 0;
  std::uint64_t tag = 0; // the consumer's own index
};

struct engine_options {
  std::string engine = "io_uring"; // "io_uring", "psync", or "s3" (s3/reader.hpp)
  cache_mode cache = cache_mode::direct;
  unsigned queue_depth = core::defaults::queue_depth; // requests in flight per reader (io_uring)
  unsigned readers = 1;                               // threads, one ring each
  std::uint32_t request_size = core::defaults::request_size;
  double max_read_rate = 0; // bytes/s over all readers, 0 = no cap
  bool keep_open = true;    // open every file once (as fio does) or per job
};

// What a source answers when a reader asks for work.
enum class pull_result {
  job,   // job was filled
  later, // nothing now (a prefetch window is full); more will come
  end,   // no more jobs
};

// Where jobs come from. pull() is called by every reader thread concurrently and must not
// block. A source that can answer `later` wakes readers that wait() in it when work arrives.
class job_source {
public:
  virtual ~job_source() = default;
  virtual pull_result pull(unsigned reader, read_job& job) = 0;
  // Called by a reader with nothing in flight after `later`: blocks until work may be there,
  // or until about timeout_ns have passed (the reader then checks for a stop and asks again).
  virtual void wait(unsigned reader, std::uint64_t timeout_ns) {
    (void)reader;
    (void)timeout_ns;
  }
};

// How a read job ended: every byte read, failed (its error says why), abandoned at a stop
// (not an error: the run was asked to stop), or skipped unread (its file changed since it was
// indexed, and changes are skipped: io/change_watch.hpp).
enum class job_outcome { done, failed, interrupted, skipped };
inline constexpr core::enum_table<job_outcome, 4> kJobOutcomeNames{
    {{job_outcome::done, "done"},
     {job_outcome::failed, "failed"},
     {job_outcome::interrupted, "interrupted"},
     {job_outcome::skipped, "skipped"}}};
constexpr const auto& names_of(job_outcome) {
  return kJobOutcomeNames;
}
// Its name where results travel between ranks: "done", "failed", "interrupted", "skipped".
std::string to_string(job_outcome o);
// Throws run_error naming the value when it is none of to_string's.
job_outcome parse_job_outcome(const std::string& text);

// Where bytes go. Calls for one job come from one reader thread; with ordered() the data of a
// job arrives in file order, otherwise in completion order.
class job_consumer {
public:
  virtual ~job_consumer() = default;
  virtual bool ordered() const { return false; }
  virtual void on_start(unsigned reader, const read_job& job) = 0;
  virtual void on_data(unsigned reader, const read_job& job, std::uint64_t file_offset,
                       const std::byte* data, std::size_t bytes) = 0;
  // bytes: what the reads returned (alignment padding included); error: what failed, empty
  // unless outcome is failed.
  virtual void on_done(unsigned reader, const read_job& job, std::uint64_t bytes,
                       std::uint64_t latency_ns, job_outcome outcome, const std::string& error) = 0;
};

// What one reader saw.
struct reader_stats {
  std::uint64_t requests = 0;
  std::uint64_t bytes = 0;
  std::uint64_t jobs = 0;
  std::uint64_t opens = 0;
  std::uint64_t short_reads = 0;
  std::uint64_t retries = 0; // -EAGAIN resubmissions
  std::uint64_t errors = 0;
  std::string first_error;
  histogram read_latency; // per request, submission to completion
  histogram open_latency;
  // What held the reader, for the run's verdict (what limited AU): its thread's CPU time, how
  // long it ran, how long it waited on completions with requests in flight (all of them, or
  // with the queue full), and the requests in flight integrated over that wait (ns ×
  // requests). Merged stats add them up, and keep the busiest reader's CPU share.
  std::uint64_t cpu_ns = 0;
  std::uint64_t run_ns = 0;
  std::uint64_t completion_wait_ns = 0;
  std::uint64_t queue_full_ns = 0;
  double in_flight_ns = 0;
  double busiest_cpu_share = 0; // CPU s ÷ wall s of the busiest reader
};

// CPU time of the calling thread in ns (CLOCK_THREAD_CPUTIME_ID).
std::uint64_t thread_cpu_ns();

// A reader thread's CPU and wall time from construction to stop(), which records them (and the
// thread's CPU share) in its stats.
class reader_clock {
public:
  reader_clock();
  void stop(reader_stats& st) const;

private:
  std::uint64_t m_wall0, m_cpu0;
};

// What a run of the engine returns: every reader's stats, and the first fatal error (a ring
// that could not be set up, a failed submission, an exception from the consumer), after which
// the other readers stopped too.
struct engine_result {
  std::vector<reader_stats> readers;
  std::string error; // empty when every reader ran to the end
  // Readers left behind in reads the kernel never completed, each with what it was stuck on
  // (a stop came and the reads outlived the grace); empty when every reader was joined.
  std::vector<std::string> abandoned;
};

class change_watch; // io/change_watch.hpp

// The files the engine reads: paths and expected sizes, indexed like read_job::file; with a
// watch, each file is checked against it when it is opened.
struct file_set {
  std::vector<std::string> paths;
  std::vector<std::uint64_t> sizes;
  std::shared_ptr<change_watch> watch;
};

class engine {
public:
  virtual ~engine() = default;
  virtual std::string name() const = 0;
  // How uncached mode is done ("RWF_DONTCACHE", "fadvise DONTNEED", or "" when not uncached).
  virtual std::string uncached_method() const { return ""; }
  // Runs the readers until the source is exhausted, stop is set or a reader fails, then
  // returns their stats and the first failure. Never throws for a reader's failure.
  virtual engine_result run(job_source& source, job_consumer& consumer,
                            const std::atomic<bool>& stop) = 0;
  // While run() runs, from any thread: the read in flight the longest, if it has been in flight
  // at least min_age_ns ("reader 0 has waited 61.2 s for a read of FILE at offset O (L bytes)"),
  // else "".
  virtual std::string stuck_read(std::uint64_t min_age_ns) const = 0;
  // Seconds spent opening the files before the first read (--open keep's file table, made when
  // the engine is); 0 when files are opened per sample, inside run().
  virtual double open_s() const { return 0; }
};

// The rules of engine options, in one place (bench's options and make_engine check them here):
// --engine, --queue-depth, --readers, --request-size, and buffers (queue depth × request size ×
// readers) no larger than this host's RAM. Throws usage_error naming the options, the figure and
// what is valid.
void check_engine_options(const engine_options& opt);

// Makes the engine asked for (check_engine_options first). io_uring falls back to psync when
// rings cannot be set up (ENOSYS, EPERM); fallback_reason then says why.
std::unique_ptr<engine> make_engine(const engine_options& opt, const file_set& files,
                                    std::string& fallback_reason);

// Open flags for a cache mode.
int open_flags(cache_mode m);

inline constexpr std::uint64_t kDirectAlign = 4096;
inline std::uint64_t align_down(std::uint64_t v) {
  return v & ~(kDirectAlign - 1);
}
inline std::uint64_t align_up(std::uint64_t v) {
  return (v + kDirectAlign - 1) & ~(kDirectAlign - 1);
}

// The bytes [begin, end) an engine reads for the range offset..offset+length of a file of
// file_size bytes: O_DIRECT widens it to blocks; the end never passes the (aligned) end of the
// file. Both engines read by this rule, and plan counts amplification and requests by it.
struct read_span {
  std::uint64_t begin = 0, end = 0;
  std::uint64_t bytes() const { return end - begin; }
  // Requests of at most request_size bytes that read it.
  std::uint64_t requests(std::uint32_t request_size) const {
    return (bytes() + request_size - 1) / request_size;
  }
};
read_span span_of(std::uint64_t offset, std::uint64_t length, std::uint64_t file_size, bool direct);

} // namespace dlsize::io
