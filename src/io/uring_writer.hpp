#pragma once
// The checkpoint writer: one io_uring ring that writes a rank's shard files from registered,
// pre-filled buffers (twice queue_depth of them, one request each: queue_depth in flight while
// the others are filled ahead), fsyncs every file as soon as its last write completes, and
// times each write and fsync. Data comes from a block_filler called on the writer's thread
// while writes are in flight, ahead of their submission; the time it takes is measured apart
// from the time spent waiting on the storage, so a report can show that the writer never
// waited on data generation.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/histogram.hpp"
#include "io/engine.hpp"
#include "io/watched_workers.hpp"

namespace dlsize::io {

struct write_target {
  std::string path; // created here (O_EXCL): the writer never writes an existing file
  std::uint64_t bytes = 0;
};

// Fills len bytes at dst with the block of file `file` (index into the targets) at `offset`.
using block_filler =
    std::function<void(std::uint32_t file, std::uint64_t offset, std::byte* dst, std::size_t len)>;

struct write_stats {
  std::uint64_t bytes = 0, requests = 0, short_writes = 0, retries = 0;
  histogram write_latency;              // per request, submission to completion
  histogram fsync_latency;              // per file
  std::uint64_t fill_ns = 0;            // in the filler (data generation)
  std::uint64_t starved_ns = 0;         // of that, with no write in flight (storage idle)
  std::uint64_t completion_wait_ns = 0; // blocked on completions
  std::uint64_t cpu_ns = 0, run_ns = 0; // the writer thread's CPU and wall time
  bool registered_buffers = false;      // false where the kernel refused to pin them
  bool interrupted = false;             // a stop came: files may be incomplete
  // Requests the kernel had not completed when the writer gave up on them (a halt, then a grace
  // with no completion): "a write of FILE at offset O". The ring and its buffers are then left
  // to the kernel, never freed under it.
  std::vector<std::string> in_kernel;
};

// Writes every target in order, queue_depth requests of at most request_size bytes in flight,
// O_DIRECT when cache is direct (a tail shorter than a block is written padded, then the file
// is truncated to its size before its fsync). Runs on a watched worker (io::run_watched): every
// open and every wait for completions is one of ctx's blocking calls, named by the oldest
// request in flight, so a write or fsync that never completes is a stall the watch sees. Stops
// early, with interrupted set, when ctx is halted; requests still in flight half a second later
// are left to the kernel (in_kernel, set in st before): the call then never returns, since the
// thread that submitted them cannot exit before the kernel completes them; it parks in a
// blocking call for the watch to abandon. Throws run_error naming the file and offset on the
// first failed write, open or fsync; `created` then still lists what to remove (the caller
// removes it).
void write_files(const std::vector<write_target>& targets, cache_mode cache, unsigned queue_depth,
                 std::uint32_t request_size, const block_filler& fill, worker_context& ctx,
                 std::vector<std::string>& created, write_stats& st);

} // namespace dlsize::io
