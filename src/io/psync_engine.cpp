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
#include "io/reader_pool.hpp"

namespace dlsize::io {

engine_result psync_engine::run(job_source& source, job_consumer& consumer,
                                const std::atomic<bool>& stop) {
  engine_result res;
  res.readers.resize(m_opt.readers);
  rate_limiter limiter(m_opt.max_read_rate);
  reader_pool pool;
  const run_context c{source, consumer, limiter, limiter.chunk(m_opt.request_size), [&] {
                        return stop.load(std::memory_order_acquire) ||
                               pool.failed().load(std::memory_order_acquire);
                      }};
  // An abandoned reader returns from here as soon as its blocking call does (see reader_pool).
  auto reader_loop = [&](unsigned id, reader_guard& guard) {
    reader_stats& st = res.readers[id];
    const reader_clock clock;
    if (read_jobs(c, {id, guard, st}))
      clock.stop(st);
  };
  const pool_result pr = pool.run(m_opt.readers, reader_loop, stop);
  finish_result(pr, res);
  return res;
}

bool psync_engine::read_jobs(const run_context& c, const reader_place& r) {
  reader_stats& st = r.st;
  aligned_buffer buf = make_aligned_buffer(m_opt.request_size, kDirectAlign);
  read_job job;
  while (!c.halted()) {
    const pull_result pr = c.source.pull(r.id, job);
    if (pr == pull_result::end)
      break;
    if (pr == pull_result::later) {
      c.source.wait(r.id, 50'000'000);
      continue;
    }
    const auto t_job = now_ns();
    c.consumer.on_start(r.id, job);
    job_state js;
    int fd = -1, open_errno = 0;
    if (m_table)
      fd = m_table->fd(job.file);
    else if (!open_job(r, job.file, fd, open_errno, js.error))
      return false;
    js.skip = skip_changed(job.file, fd, open_errno);
    if (js.skip)
      js.error.clear();
    if (!read_job_range(c, r, job, fd, buf.get(), js))
      return false;
    if (!m_table && fd >= 0) {
      close(fd);
      if (fadvise_fallback())
        drop_file(job.file);
    }
    st.bytes += js.bytes;
    ++st.jobs;
    if (!js.error.empty() && st.errors++ == 0)
      st.first_error = js.error;
    c.consumer.on_done(r.id, job, js.bytes, now_ns() - t_job,
                       !js.error.empty() ? job_outcome::failed
                       : js.interrupted  ? job_outcome::interrupted
                       : js.skip         ? job_outcome::skipped
                                         : job_outcome::done,
                       js.error);
  }
  return true;
}

bool psync_engine::open_job(const reader_place& r, std::uint32_t file, int& fd, int& open_errno,
                            std::string& error) {
  const auto t0 = now_ns();
  m_inflight.begin(r.id, 0, file, 0, 0, t0);
  r.guard.enter_blocking();
  fd = open_noatime(m_files.paths[file].c_str(), m_flags);
  open_errno = errno;
  if (!r.guard.leave_blocking())
    return false;
  m_inflight.end(r.id, 0);
  r.st.open_latency.record(now_ns() - t0);
  ++r.st.opens;
  if (fd < 0)
    error = fmt::format("open failed: {}. file: {}", errno_text(open_errno), m_files.paths[file]);
  return true;
}

bool psync_engine::read_job_range(const run_context& c, const reader_place& r, const read_job& job,
                                  int fd, std::byte* buf, job_state& js) {
  reader_stats& st = r.st;
  std::uint64_t begin = 0, end = 0;
  read_range(job, begin, end);
  for (std::uint64_t pos = begin; js.error.empty() && !js.skip && pos < end;) {
    if (c.halted()) {
      js.interrupted = true;
      break;
    }
    const auto len = static_cast<std::size_t>(std::min<std::uint64_t>(c.request_size, end - pos));
    if (c.limiter.active() && !sleep_until_ns_or(c.limiter.reserve(len, now_ns()), c.halted)) {
      js.interrupted = true;
      break;
    }
    std::size_t filled = 0;
    const auto t0 = now_ns();
    if (!fill_request(r, job, fd, pos, len, buf, filled, js.error))
      return false;
    const std::uint64_t waited = now_ns() - t0;
    st.read_latency.record(waited);
    st.completion_wait_ns += waited; // one request in flight: the queue (of 1) is full
    st.queue_full_ns += waited;
    st.in_flight_ns += static_cast<double>(waited);
    if (filled > 0) {
      c.consumer.on_data(r.id, job, pos, buf, filled);
      if (fadvise_fallback() && m_table)
        drop_cached(fd, pos, filled);
    }
    js.bytes += filled;
    if (filled < len)
      break;
    pos += len;
  }
  return true;
}

bool psync_engine::fill_request(const reader_place& r, const read_job& job, int fd,
                                std::uint64_t pos, std::size_t len, std::byte* buf,
                                std::size_t& filled, std::string& error) {
  reader_stats& st = r.st;
  const std::uint64_t size = m_files.sizes[job.file];
  while (filled < len) {
    iovec iov{buf + filled, len - filled};
    m_inflight.begin(r.id, 0, job.file, pos + filled, len - filled, now_ns());
    r.guard.enter_blocking();
    const ssize_t n = preadv2(fd, &iov, 1, static_cast<off_t>(pos + filled), rw_flags());
    const int err = errno;
    if (!r.guard.leave_blocking())
      return false;
    m_inflight.end(r.id, 0);
    ++st.requests;
    if (n < 0 && (err == EINTR || err == EAGAIN)) {
      ++st.retries;
      continue;
    }
    if (n < 0) {
      error = fmt::format("read failed: {}. file: {}; offset: {}; length: {}", errno_text(err),
                          m_files.paths[job.file], pos + filled, len - filled);
      break;
    }
    if (n == 0) {
      if (pos + filled < size)
        error = fmt::format("file ended early at {} bytes, expected {} (truncated?). file: {}",
                            pos + filled, size, m_files.paths[job.file]);
      break;
    }
    filled += static_cast<std::size_t>(n);
    if (filled < len && pos + filled < size)
      ++st.short_reads;
    if (pos + filled >= size)
      break;
  }
  return true;
}

} // namespace dlsize::io
