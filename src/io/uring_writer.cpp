#include "io/uring_writer.hpp"

#include <fcntl.h>
#include <liburing.h>
#include <sys/uio.h>
#include <unistd.h>

#include <deque>
#include <memory>

#include <fmt/format.h>

#include "core/aligned_buffer.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"

namespace dlsize::io {
namespace {

constexpr std::uint64_t kFsyncTag = 1ull << 63;
// After a halt, how long requests in flight may take to complete before the writer leaves them
// to the kernel: below the worker pool's grace (1 s), so the writer itself is never abandoned
// for waiting on them.
constexpr std::uint64_t kDrainGraceNs = 500'000'000;
constexpr long long kWaitSliceNs = 100'000'000;

struct slot {
  std::uint32_t file = 0;
  std::uint64_t offset = 0; // where this request's bytes go
  std::uint32_t len = 0;    // bytes to write (padded to 4 KiB under O_DIRECT)
  std::uint32_t done = 0;   // bytes the kernel took so far (short writes resume)
  std::uint64_t t_submit = 0;
};

class uring_writer {
public:
  uring_writer(const std::vector<write_target>& targets, cache_mode cache, unsigned qd,
               std::uint32_t request_size, write_stats& st)
      : m_targets(targets), m_direct(cache == cache_mode::direct), m_qd(qd),
        m_request(request_size), m_st(st), m_slots(2 * qd), m_remaining(targets.size()),
        m_fds(targets.size(), -1), m_fsync_start(targets.size(), 0),
        m_fsync_pending(targets.size(), false) {
    DLSIZE_URING(io_uring_queue_init(2 * qd, &m_ring, 0), "checkpoint writer ring");
    // Twice the queue depth of buffers: while qd writes are in flight, the other qd are filled
    // ahead, so a completed write is replaced at once by a block already made.
    const unsigned buffers = 2 * qd;
    m_buf = make_aligned_buffer(std::size_t{buffers} * request_size, kDirectAlign);
    std::vector<iovec> iov(buffers);
    for (unsigned i = 0; i < buffers; ++i) {
      iov[i] = {m_buf.get() + std::size_t{i} * request_size, request_size};
      m_free.push_back(buffers - 1 - i);
    }
    // Pinning can fail under a small RLIMIT_MEMLOCK; plain writes then do the same work.
    m_st.registered_buffers = io_uring_register_buffers(&m_ring, iov.data(), buffers) == 0;
    for (std::size_t f = 0; f < targets.size(); ++f)
      m_remaining[f] = targets[f].bytes;
  }
  ~uring_writer() {
    for (int fd : m_fds)
      if (fd >= 0)
        close(fd);
    io_uring_queue_exit(&m_ring);
  }

  void run(const block_filler& fill, worker_context& ctx, std::vector<std::string>& created) {
    const int flags = O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | (m_direct ? O_DIRECT : 0);
    for (std::size_t f = 0; f < m_targets.size(); ++f) {
      const std::string& path = m_targets[f].path;
      m_fds[f] = DLSIZE_SYSCALL(
          ctx.blocking("an open of " + path, [&] { return open(path.c_str(), flags, 0644); }),
          "file: " + path);
      created.push_back(m_targets[f].path);
    }
    // Registered files spare the kernel a look-up and a reference count per request (fio's
    // --registerfiles); where the kernel refuses, requests name the descriptors.
    m_fixed_files =
        io_uring_register_files(&m_ring, m_fds.data(), static_cast<unsigned>(m_fds.size())) == 0;
    for (std::size_t f = 0; f < m_targets.size(); ++f)
      if (m_targets[f].bytes == 0)
        start_fsync(static_cast<std::uint32_t>(f));
    while (true) {
      if (!m_stopping && ctx.halted()) {
        m_stopping = true;
        m_st.interrupted = true;
      }
      if (!m_stopping) {
        // The queue first: every free place in it gets a block (made ahead if one is ready),
        // all submitted at once; then blocks for the next completions are made ahead while no
        // completion waits to be reaped.
        bool queued = false;
        while (m_writes < m_qd && (!m_ready.empty() || fill_one(fill))) {
          prep(m_ready.front());
          m_ready.pop_front();
          queued = true;
        }
        if (queued)
          submit();
        while (m_ready.size() < m_qd && io_uring_cq_ready(&m_ring) == 0 && fill_one(fill)) {
        }
      }
      if (m_inflight == 0)
        break;
      const std::uint64_t t0 = now_ns();
      const int rc = wait_completions(ctx);
      if (rc == -ETIME) { // halted, and the requests in flight outlived the grace
        m_st.completion_wait_ns += now_ns() - t0;
        m_st.in_kernel = in_flight();
        return;
      }
      if (rc < 0)
        throw_syscall_error("io_uring_submit_and_wait_timeout", -rc, __FILE__, __LINE__,
                            "checkpoint writer");
      m_st.completion_wait_ns += now_ns() - t0;
      unsigned head, n = 0;
      io_uring_cqe* cqe = nullptr;
      io_uring_for_each_cqe(&m_ring, head, cqe) {
        ++n;
        complete(cqe->user_data, cqe->res);
      }
      io_uring_cq_advance(&m_ring, n);
      if (!m_error.empty())
        m_stopping = true;
    }
    if (!m_error.empty())
      throw run_error(m_error);
  }

  bool left_to_kernel() const { return !m_st.in_kernel.empty(); }

private:
  // Makes the next block in a free buffer and queues it as ready; false when every byte has a
  // block or no buffer is free.
  bool fill_one(const block_filler& fill) {
    while (m_file < m_targets.size() && m_next >= m_targets[m_file].bytes) {
      ++m_file;
      m_next = 0;
    }
    if (m_file >= m_targets.size() || m_free.empty())
      return false;
    const unsigned i = m_free.back();
    m_free.pop_back();
    slot& s = m_slots[i];
    const auto len = static_cast<std::uint32_t>(
        std::min<std::uint64_t>(m_request, m_targets[m_file].bytes - m_next));
    s = {static_cast<std::uint32_t>(m_file), m_next,
         m_direct ? static_cast<std::uint32_t>(align_up(len)) : len, 0, 0};
    const std::uint64_t t0 = now_ns();
    fill(s.file, s.offset, buffer(i), len);
    const std::uint64_t took = now_ns() - t0;
    m_st.fill_ns += took;
    if (m_inflight == 0)
      m_st.starved_ns += took; // the storage had nothing of ours to do meanwhile
    m_next += len;
    m_ready.push_back(i);
    return true;
  }

  // Submits what is queued and waits until a completion is ready, in slices so that a halt is
  // seen: one blocking call of ctx, named by the oldest request in flight, so the watch sees a
  // request that never completes as a stall. Returns 0, -ETIME when halted and nothing
  // completed within the grace, or another negative errno.
  int wait_completions(worker_context& ctx) {
    return ctx.blocking(oldest(), [&] {
      std::uint64_t halted_at = 0;
      while (true) {
        __kernel_timespec ts{0, kWaitSliceNs};
        io_uring_cqe* cqe = nullptr;
        const int rc = io_uring_submit_and_wait_timeout(&m_ring, &cqe, 1, &ts, nullptr);
        if (io_uring_cq_ready(&m_ring) > 0)
          return 0;
        if (rc < 0 && rc != -ETIME && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY)
          return rc;
        if (ctx.halted()) {
          const std::uint64_t t = now_ns();
          if (halted_at == 0)
            halted_at = t;
          else if (t - halted_at >= kDrainGraceNs)
            return -ETIME;
        }
      }
    });
  }

  std::string describe_slot(unsigned i) const {
    const slot& s = m_slots[i];
    return fmt::format("a write of {} at offset {}", m_targets[s.file].path, s.offset + s.done);
  }

  // The request in flight the longest ("a write of FILE at offset O", "an fsync of FILE").
  std::string oldest() const {
    std::string what = "completions";
    std::uint64_t since = UINT64_MAX;
    for (unsigned i : in_flight_slots())
      if (m_slots[i].t_submit < since) {
        since = m_slots[i].t_submit;
        what = describe_slot(i);
      }
    for (std::size_t f = 0; f < m_fsync_start.size(); ++f)
      if (m_fsync_pending[f] && m_fsync_start[f] < since) {
        since = m_fsync_start[f];
        what = "an fsync of " + m_targets[f].path;
      }
    return what;
  }

  std::vector<unsigned> in_flight_slots() const {
    std::vector<bool> free(m_slots.size(), false);
    for (unsigned i : m_free)
      free[i] = true;
    for (unsigned i : m_ready)
      free[i] = true;
    std::vector<unsigned> out;
    for (unsigned i = 0; i < m_slots.size(); ++i)
      if (!free[i])
        out.push_back(i);
    return out;
  }

  std::vector<std::string> in_flight() const {
    std::vector<std::string> out;
    for (unsigned i : in_flight_slots())
      out.push_back(describe_slot(i));
    for (std::size_t f = 0; f < m_fsync_pending.size(); ++f)
      if (m_fsync_pending[f])
        out.push_back("an fsync of " + m_targets[f].path);
    return out;
  }

  // What a request names file f by: its index among the registered files, or its descriptor.
  int fd(std::size_t f) const { return m_fixed_files ? static_cast<int>(f) : m_fds[f]; }

  std::byte* buffer(unsigned i) { return m_buf.get() + std::size_t{i} * m_request; }

  void submit() {
    int rc;
    while ((rc = io_uring_submit(&m_ring)) == -EINTR || rc == -EAGAIN) {
    }
    if (rc < 0)
      throw_syscall_error("io_uring_submit", -rc, __FILE__, __LINE__, "checkpoint writer");
  }

  // A free submission entry, flushing the queue to the kernel when it is full.
  io_uring_sqe* sqe() {
    io_uring_sqe* q = io_uring_get_sqe(&m_ring);
    if (!q) {
      submit();
      q = io_uring_get_sqe(&m_ring);
    }
    if (!q)
      throw run_error("checkpoint writer: no io_uring submission entry free after a submit");
    return q;
  }

  void prep(unsigned i) {
    slot& s = m_slots[i];
    io_uring_sqe* q = sqe();
    if (m_st.registered_buffers)
      io_uring_prep_write_fixed(q, fd(s.file), buffer(i) + s.done, s.len - s.done,
                                s.offset + s.done, static_cast<int>(i));
    else
      io_uring_prep_write(q, fd(s.file), buffer(i) + s.done, s.len - s.done, s.offset + s.done);
    if (m_fixed_files)
      io_uring_sqe_set_flags(q, IOSQE_FIXED_FILE);
    io_uring_sqe_set_data64(q, i);
    s.t_submit = now_ns();
    ++m_inflight;
    ++m_writes;
  }

  void start_fsync(std::uint32_t f) {
    // The padded tail of an O_DIRECT file goes before the fsync makes the file durable.
    if (m_direct && m_targets[f].bytes % kDirectAlign)
      DLSIZE_SYSCALL(ftruncate(m_fds[f], static_cast<off_t>(m_targets[f].bytes)),
                     "file: " + m_targets[f].path);
    io_uring_sqe* q = sqe();
    io_uring_prep_fsync(q, fd(f), 0);
    if (m_fixed_files)
      io_uring_sqe_set_flags(q, IOSQE_FIXED_FILE);
    io_uring_sqe_set_data64(q, kFsyncTag | f);
    m_fsync_start[f] = now_ns();
    m_fsync_pending[f] = true;
    ++m_inflight;
  }

  void complete(std::uint64_t tag, int res) {
    --m_inflight;
    if (tag & kFsyncTag) {
      const auto f = static_cast<std::size_t>(tag & ~kFsyncTag);
      m_st.fsync_latency.record(now_ns() - m_fsync_start[f]);
      m_fsync_pending[f] = false;
      if (res < 0 && m_error.empty())
        m_error = fmt::format("fsync failed: {}. file: {}", errno_text(-res), m_targets[f].path);
      return;
    }
    const auto i = static_cast<unsigned>(tag);
    slot& s = m_slots[i];
    --m_writes;
    ++m_st.requests;
    if ((res == -EAGAIN || res == -EINTR) && m_error.empty()) {
      ++m_st.retries;
      prep(i);
      return;
    }
    if (res <= 0) {
      if (m_error.empty())
        m_error = fmt::format("write failed: {}. file: {}; offset: {}; length: {}",
                              res == 0 ? "no progress" : errno_text(-res), m_targets[s.file].path,
                              s.offset + s.done, s.len - s.done);
      m_free.push_back(i);
      return;
    }
    s.done += static_cast<std::uint32_t>(res);
    if (s.done < s.len && m_error.empty()) {
      ++m_st.short_writes;
      prep(i);
      return;
    }
    m_st.write_latency.record(now_ns() - s.t_submit);
    const std::uint64_t real = std::min<std::uint64_t>(s.len, m_targets[s.file].bytes - s.offset);
    m_st.bytes += real;
    m_free.push_back(i);
    m_remaining[s.file] -= real;
    if (m_remaining[s.file] == 0 && m_error.empty() && !m_stopping)
      start_fsync(s.file);
  }

  const std::vector<write_target>& m_targets;
  bool m_direct;
  unsigned m_qd;
  std::uint32_t m_request;
  write_stats& m_st;
  io_uring m_ring{};
  aligned_buffer m_buf;
  std::vector<slot> m_slots;
  std::vector<unsigned> m_free; // buffers with nothing in them
  std::deque<unsigned> m_ready; // buffers made ahead, in file order, not yet submitted
  bool m_fixed_files = false;
  unsigned m_writes = 0; // writes in flight (at most the queue depth)
  std::vector<std::uint64_t> m_remaining;
  std::vector<int> m_fds;
  std::vector<std::uint64_t> m_fsync_start;
  std::vector<bool> m_fsync_pending;
  std::size_t m_file = 0;
  std::uint64_t m_next = 0;
  unsigned m_inflight = 0;
  bool m_stopping = false;
  std::string m_error;
};

} // namespace

void write_files(const std::vector<write_target>& targets, cache_mode cache, unsigned queue_depth,
                 std::uint32_t request_size, const block_filler& fill, worker_context& ctx,
                 std::vector<std::string>& created, write_stats& st) {
  st = write_stats{};
  const std::uint64_t wall0 = now_ns(), cpu0 = thread_cpu_ns();
  auto w = std::make_unique<uring_writer>(targets, cache, queue_depth, request_size, st);
  w->run(fill, ctx, created);
  st.run_ns = now_ns() - wall0;
  st.cpu_ns = thread_cpu_ns() - cpu0;
  if (!w->left_to_kernel())
    return;
  // The kernel still holds requests of this thread's ring: the ring and its buffers stay
  // (leaked on purpose, nothing the kernel may touch is freed under it), and so does the thread,
  // since a thread that exits waits in the kernel for its ring's requests. It parks in a blocking
  // call that never ends, which the watch abandons.
  (void)w.release();
  ctx.blocking(fmt::format("the {} io_uring request(s) the kernel holds", st.in_kernel.size()), [] {
    while (true)
      pause();
    return 0;
  });
}

} // namespace dlsize::io
