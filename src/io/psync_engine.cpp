#include "io/psync_engine.hpp"

#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cstdlib>
#include <memory>

#include <fmt/format.h>

#include "core/aligned_buffer.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "io/noatime.hpp"
#include "io/rate_limiter.hpp"

namespace dlsize::io {
engine_result psync_engine::run(job_source& source, job_consumer& consumer,
                                const std::atomic<bool>& stop) {
  engine_result res;
  std::vector<reader_stats>& stats = res.readers;
  stats.resize(m_opt.readers);
  rate_limiter limiter(m_opt.max_read_rate);
  const std::uint32_t request_size = limiter.chunk(m_opt.request_size);
  reader_pool pool;
  auto halted = [&] {
    return stop.load(std::memory_order_acquire) || pool.failed().load(std::memory_order_acquire);
  };
  // An abandoned reader returns from here as soon as its blocking call does (see reader_pool).
  auto reader_loop = [&](unsigned id, reader_guard& guard) {
    reader_stats& st = stats[id];
    const reader_clock clock;
    aligned_buffer buf = make_aligned_buffer(m_opt.request_size, kDirectAlign);
    read_job job;
    while (!halted()) {
      const pull_result pr = source.pull(id, job);
      if (pr == pull_result::end)
        break;
      if (pr == pull_result::later) {
        source.wait(id, 50'000'000);
        continue;
      }
      const auto t_job = now_ns();
      consumer.on_start(id, job);
      std::string error;
      int fd;
      int open_errno = 0;
      if (m_table) {
        fd = m_table->fd(job.file);
      } else {
        const auto t0 = now_ns();
        m_inflight.begin(id, 0, job.file, 0, 0, t0);
        guard.enter_blocking();
        fd = open_noatime(m_files.paths[job.file].c_str(), m_flags);
        open_errno = errno;
        if (!guard.leave_blocking())
          return;
        m_inflight.end(id, 0);
        st.open_latency.record(now_ns() - t0);
        ++st.opens;
        if (fd < 0)
          error = fmt::format("open failed: {}. file: {}", errno_text(open_errno),
                              m_files.paths[job.file]);
      }
      const bool skip = skip_changed(job.file, fd, open_errno);
      if (skip)
        error.clear();
      bool interrupted = false; // abandoned at a stop
      std::uint64_t begin = 0, end = 0, bytes = 0;
      read_range(job, begin, end);
      const std::uint64_t size = m_files.sizes[job.file];
      for (std::uint64_t pos = begin; error.empty() && !interrupted && !skip && pos < end;) {
        if (halted()) {
          interrupted = true;
          break;
        }
        const auto len = static_cast<std::size_t>(std::min<std::uint64_t>(request_size, end - pos));
        if (limiter.active() && !sleep_until_ns_or(limiter.reserve(len, now_ns()), halted)) {
          interrupted = true;
          break;
        }
        std::size_t filled = 0;
        const auto t0 = now_ns();
        while (filled < len) {
          iovec iov{buf.get() + filled, len - filled};
          m_inflight.begin(id, 0, job.file, pos + filled, len - filled, now_ns());
          guard.enter_blocking();
          const ssize_t n = preadv2(fd, &iov, 1, static_cast<off_t>(pos + filled), rw_flags());
          const int err = errno;
          if (!guard.leave_blocking())
            return;
          m_inflight.end(id, 0);
          errno = err;
          ++st.requests;
          if (n < 0 && (errno == EINTR || errno == EAGAIN)) {
            ++st.retries;
            continue;
          }
          if (n < 0) {
            error =
                fmt::format("read failed: {}. file: {}; offset: {}; length: {}", errno_text(errno),
                            m_files.paths[job.file], pos + filled, len - filled);
            break;
          }
          if (n == 0) {
            if (pos + filled < size)
              error =
                  fmt::format("file ended early at {} bytes, expected {} (truncated?). file: {}",
                              pos + filled, size, m_files.paths[job.file]);
            break;
          }
          filled += static_cast<std::size_t>(n);
          if (filled < len && pos + filled < size)
            ++st.short_reads;
          if (pos + filled >= size)
            break;
        }
        const std::uint64_t waited = now_ns() - t0;
        st.read_latency.record(waited);
        st.completion_wait_ns += waited; // one request in flight: the queue (of 1) is full
        st.queue_full_ns += waited;
        st.in_flight_ns += static_cast<double>(waited);
        if (filled > 0) {
          consumer.on_data(id, job, pos, buf.get(), filled);
          if (fadvise_fallback() && m_table)
            drop_cached(fd, pos, filled);
        }
        bytes += filled;
        if (filled < len)
          break;
        pos += len;
      }
      if (!m_table && fd >= 0) {
        close(fd);
        if (fadvise_fallback())
          drop_file(job.file);
      }
      st.bytes += bytes;
      ++st.jobs;
      if (!error.empty()) {
        if (st.errors++ == 0)
          st.first_error = error;
      }
      consumer.on_done(id, job, bytes, now_ns() - t_job,
                       !error.empty() ? job_outcome::failed
                       : interrupted  ? job_outcome::interrupted
                       : skip         ? job_outcome::skipped
                                      : job_outcome::done,
                       error);
    }
    clock.stop(st);
  };
  const pool_result pr = pool.run(m_opt.readers, reader_loop, stop);
  finish_result(pr, res);
  return res;
}

} // namespace dlsize::io
