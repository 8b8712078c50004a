#pragma once
// The checkpoint writer: one io_uring ring that writes a rank's shard files from registered,
// pre-filled buffers (queue_depth of them, one request each), fsyncs every file as soon as its
// last write completes, and times each write and fsync. Data comes from a block_filler called
// on the writer's thread just before a buffer is submitted; the time it takes is measured apart
// from the time spent waiting on the storage, so a report can show that the writer never
// waited on data generation.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/histogram.hpp"
#include "io/engine.hpp"

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
};

// Writes every target in order, queue_depth requests of at most request_size bytes in flight,
// O_DIRECT when cache is direct (a tail shorter than a block is written padded, then the file
// is truncated to its size before its fsync). Stops early, with interrupted set, when stop()
// answers true. Throws run_error naming the file and offset on the first failed write, open or
// fsync; `created` then still lists what to remove (the caller removes it).
write_stats write_files(const std::vector<write_target>& targets, cache_mode cache,
                        unsigned queue_depth, std::uint32_t request_size, const block_filler& fill,
                        const std::function<bool()>& stop, std::vector<std::string>& created);

} // namespace dlsize::io
