#include "io/uring_engine.hpp"

#include <fcntl.h>
#include <liburing.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cstdlib>
#include <memory>

#include <fmt/format.h>

#include "core/aligned_buffer.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "io/change_watch.hpp"
#include "io/noatime.hpp"
#include "io/rate_limiter.hpp"

namespace dlsize::io {
namespace {

constexpr std::uint64_t kTagOpen = 1ull << 32;
constexpr std::uint64_t kTagClose = 2ull << 32;
constexpr std::uint64_t kTagCancel = 3ull << 32;
// How long the reader waits in the kernel at most before it looks at the stop flag again.
constexpr std::uint64_t kPollNs = 100'000'000;
// After a stop, how long cancelled reads may take to come back before the reader gives up on
// them (a hung NFS or FUSE server keeps them forever).
constexpr std::uint64_t kGraceNs = 1'000'000'000;

// Thrown by a reader that finds itself abandoned by the pool on its way out of the kernel.
struct abandoned_reader : std::exception {};
constexpr std::uint64_t kTagMask = 0xffffffffull;

// Makes a ring with the cheapest completion mode the kernel offers.
int init_ring(io_uring& ring, unsigned entries) {
  io_uring_params p{};
  p.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
  int rc = io_uring_queue_init_params(entries, &ring, &p);
  if (rc == -EINVAL) {
    p = io_uring_params{};
    p.flags = IORING_SETUP_COOP_TASKRUN;
    rc = io_uring_queue_init_params(entries, &ring, &p);
  }
  if (rc == -EINVAL)
    rc = io_uring_queue_init(entries, &ring, 0);
  return rc;
}

// One reader thread's ring and its state machine over jobs and requests.
class uring_reader {
public:
  uring_reader(const engine_options& opt, const file_set& files, const file_table* table,
               int open_flags, int rw_flags, bool fadvise, bool direct, rate_limiter& limiter,
               reader_stats& st, inflight_board& board)
      : m_opt(opt), m_files(files), m_table(table), m_open_flags(open_flags), m_rw_flags(rw_flags),
        m_fadvise(fadvise), m_direct(direct), m_limiter(limiter), m_st(st), m_board(board),
        m_request_size(limiter.chunk(opt.request_size)), m_reqs(opt.queue_depth),
        m_jobs(opt.queue_depth), m_ready(opt.queue_depth) {
    // Free lists, so that picking a buffer or a job slot is O(1) at any queue depth.
    for (unsigned i = opt.queue_depth; i-- > 0;) {
      m_free_reqs.push_back(i);
      m_free_jobs.push_back(i);
    }
  }
  ~uring_reader() {
    if (m_abandoned) {
      // Reads the kernel still holds would write into the buffers of a torn-down ring: the ring
      // and the buffers are left to the process's end.
      (void)m_buf.release();
      return;
    }
    if (m_ring_ok)
      io_uring_queue_exit(&m_ring);
  }

  // What the reads this reader gave up on were waiting for ("" when it gave up on none).
  const std::vector<std::string>& abandoned() const { return m_abandoned_reads; }

  void setup() {
    const unsigned qd = m_opt.queue_depth;
    DLSIZE_URING(init_ring(m_ring, std::max(8u, 2 * qd)),
                 "io_uring setup; entries: " + std::to_string(2 * qd));
    m_ring_ok = true;
    m_buf = make_aligned_buffer(std::size_t{qd} * m_opt.request_size, kDirectAlign);
    std::vector<iovec> iov(qd);
    for (unsigned i = 0; i < qd; ++i) {
      m_reqs[i].buf = m_buf.get() + std::size_t{i} * m_opt.request_size;
      iov[i] = {m_reqs[i].buf, m_opt.request_size};
    }
    // Registered buffers save a page pinning per request; without them (memlock limit) plain
    // reads still work.
    m_fixed_bufs = io_uring_register_buffers(&m_ring, iov.data(), qd) == 0;
    if (m_table) {
      m_fixed_files = io_uring_register_files(&m_ring, m_table->fds().data(),
                                              static_cast<unsigned>(m_table->fds().size())) == 0;
    } else {
      DLSIZE_URING(io_uring_register_files_sparse(&m_ring, qd),
                   "io_uring file table for per-sample opens");
      m_fixed_files = true;
    }
  }

  // Runs until the source ends; stop (asked from outside) or failed (another reader died)
  // abandon the jobs in flight.
  void run(job_source& source, job_consumer& consumer, const std::atomic<bool>& stop,
           const std::atomic<bool>& failed, unsigned id, reader_guard& guard) {
    m_id = id;
    m_guard = &guard;
    m_consumer = &consumer;
    m_ordered = consumer.ordered();
    bool more = true;
    std::uint64_t give_up_at = 0;
    for (;;) {
      const bool stopping =
          stop.load(std::memory_order_acquire) || failed.load(std::memory_order_acquire);
      if (stopping && !give_up_at) {
        give_up_at = now_ns() + kGraceNs;
        cancel_all();
      }
      if (give_up_at && m_inflight > 0 && now_ns() >= give_up_at) {
        abandon();
        return;
      }
      if (stopping && more) {
        more = false;
        for (unsigned i = 0; i < m_jobs.size(); ++i) {
          auto& j = m_jobs[i];
          if (j.active && !j.closing && !j.ended()) {
            j.interrupted = true;
            stop_requests(i);
            maybe_finish(i);
          }
        }
      }
      std::uint64_t wake_at = 0;
      bool later = false;
      fill(source, more, wake_at, later);
      if (m_inflight == 0) {
        if (!more && m_active == 0)
          break;
        if (wake_at) {
          // In slices, so that a stop is seen during a long rate-limit wait.
          sleep_until_ns(std::min(wake_at, now_ns() + kPollNs / 5));
          continue;
        }
        if (later) {
          source.wait(id, 50'000'000);
          continue;
        }
        throw run_error(fmt::format("io_uring reader {} stalled with {} jobs and nothing in flight",
                                    id, m_active));
      }
      const std::uint64_t wait_start = now_ns();
      const unsigned waiting_on = m_inflight;
      // Never an unbounded wait: a read that never completes must not hide a stop.
      const std::uint64_t now = now_ns();
      std::uint64_t wait = kPollNs;
      if (wake_at)
        wait = std::min(wait, wake_at > now ? wake_at - now : 0);
      __kernel_timespec ts{static_cast<long long>(wait / 1'000'000'000ull),
                           static_cast<long long>(wait % 1'000'000'000ull)};
      io_uring_cqe* cqe = nullptr;
      int rc =
          guarded([&] { return io_uring_submit_and_wait_timeout(&m_ring, &cqe, 1, &ts, nullptr); });
      if (rc == -ETIME)
        rc = 0;
      if (rc < 0 && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY)
        throw_syscall_error("io_uring_submit_and_wait", -rc, __FILE__, __LINE__,
                            "reader " + std::to_string(id));
      note_wait(now_ns() - wait_start, waiting_on);
      reap();
    }
  }

private:
  // Time blocked on completions, for the run's verdict: a reader that waits with its queue
  // full is held by the storage.
  void note_wait(std::uint64_t ns, unsigned in_flight) {
    m_st.completion_wait_ns += ns;
    m_st.in_flight_ns += static_cast<double>(ns) * in_flight;
    if (in_flight >= m_opt.queue_depth)
      m_st.queue_full_ns += ns;
  }

  struct request {
    std::byte* buf = nullptr;
    bool busy = false;
    bool in_flight = false;
    bool held = false; // complete, waiting for an earlier request of its job (ordered mode)
    unsigned job = 0;
    std::uint64_t start = 0; // file offset of buf[0]
    std::uint32_t len = 0;
    std::uint32_t filled = 0;
    std::uint64_t t_submit = 0;
  };
  struct job_state {
    bool active = false;
    bool opening = false;
    bool opened = false;  // per-sample opens: the slot holds a descriptor to close
    bool closing = false; // per-sample opens: the slot is busy until its close completes
    int open_flags = 0;   // per-sample opens: the flags of the open in flight
    read_job job;
    std::uint64_t next = 0; // next offset to request
    std::uint64_t end = 0;
    std::uint64_t deliver = 0; // next offset to hand over (ordered mode)
    unsigned outstanding = 0;
    std::uint64_t bytes = 0;
    std::uint64_t t_start = 0;
    std::string error;        // the failure, when it failed
    bool interrupted = false; // abandoned at a stop
    bool skipped = false;     // its file changed since it was indexed (--on-change skip)
    // The job reads no further: it failed or was abandoned.
    bool ended() const { return interrupted || !error.empty(); }
    job_outcome outcome() const {
      return !error.empty() ? job_outcome::failed
             : interrupted  ? job_outcome::interrupted
             : skipped      ? job_outcome::skipped
                            : job_outcome::done;
    }
  };

  // A submission can block in the kernel itself: file systems that do not honour IOCB_NOWAIT
  // (FUSE with direct_io) read inline in the submitting thread. Such a call is made under the
  // reader's guard; a reader abandoned meanwhile leaves by throwing, touching only its own
  // object (whose destructor then leaks the ring and the buffers).
  template <class F> int guarded(F call) {
    m_guard->enter_blocking();
    const int rc = call();
    if (!m_guard->leave_blocking()) {
      m_abandoned = true;
      throw abandoned_reader();
    }
    return rc;
  }

  io_uring_sqe* sqe() {
    io_uring_sqe* s = io_uring_get_sqe(&m_ring);
    if (!s) {
      guarded([&] { return io_uring_submit(&m_ring); });
      s = io_uring_get_sqe(&m_ring);
    }
    if (!s)
      throw run_error("io_uring: no submission entry free after submit");
    return s;
  }

  int file_ref(const job_state& j, unsigned job_index) const {
    if (!m_table)
      return static_cast<int>(job_index);
    return m_fixed_files ? static_cast<int>(j.job.file) : m_table->fd(j.job.file);
  }

  void prep_read(unsigned r) {
    request& q = m_reqs[r];
    const job_state& j = m_jobs[q.job];
    io_uring_sqe* s = sqe();
    const int fd = file_ref(j, q.job);
    if (m_fixed_bufs)
      io_uring_prep_read_fixed(s, fd, q.buf + q.filled, q.len - q.filled, q.start + q.filled,
                               static_cast<int>(r));
    else
      io_uring_prep_read(s, fd, q.buf + q.filled, q.len - q.filled, q.start + q.filled);
    if (m_fixed_files)
      s->flags |= IOSQE_FIXED_FILE;
    s->rw_flags = m_rw_flags;
    io_uring_sqe_set_data64(s, r);
    q.in_flight = true;
    ++m_inflight;
    m_board.begin(m_id, r, j.job.file, q.start + q.filled, q.len - q.filled, now_ns());
  }

  // Asks the kernel to cancel every request of this ring (a stop); reads blocked in a server
  // that never answers may still not come back (-EALREADY), see abandon().
  void cancel_all() {
    if (m_inflight == 0)
      return;
    io_uring_sqe* s = sqe();
    io_uring_prep_cancel64(s, 0, IORING_ASYNC_CANCEL_ANY);
    io_uring_sqe_set_data64(s, kTagCancel);
    guarded([&] { return io_uring_submit(&m_ring); });
  }

  // The grace after a stop is over and reads are still in the kernel: name them and leave.
  void abandon() {
    m_abandoned = true;
    const std::uint64_t now = now_ns();
    for (unsigned r = 0; r < m_reqs.size(); ++r)
      if (m_reqs[r].in_flight) {
        const auto& q = m_reqs[r];
        m_abandoned_reads.push_back(
            describe(
                {m_id, m_jobs[q.job].job.file, q.start + q.filled, q.len - q.filled, q.t_submit},
                m_files.paths[m_jobs[q.job].job.file], now) +
            "; cancelling it failed and the kernel still holds it, so the reader left it");
      }
    for (unsigned i = 0; i < m_jobs.size(); ++i)
      if (m_jobs[i].opening)
        m_abandoned_reads.push_back(
            fmt::format("reader {} waited for the open of {}; the kernel still holds it", m_id,
                        m_files.paths[m_jobs[i].job.file]));
  }

  // Queues requests until queue_depth are in flight, the source is dry, or the rate cap says
  // wait (then wake_at is when).
  void fill(job_source& source, bool& more, std::uint64_t& wake_at, bool& later) {
    while (m_inflight < m_opt.queue_depth) {
      // The oldest ready job that still has bytes to request.
      if (m_ready_count == 0) {
        if (!more || m_free_jobs.empty())
          return;
        const pull_result pr = start_job(source);
        if (pr == pull_result::end) {
          more = false;
          return;
        }
        if (pr == pull_result::later) {
          later = true;
          return;
        }
        continue;
      }
      const unsigned pick = m_ready[m_ready_head];
      job_state& j = m_jobs[pick];
      const auto len =
          static_cast<std::uint32_t>(std::min<std::uint64_t>(m_request_size, j.end - j.next));
      if (m_limiter.active()) {
        if (!m_reserved) {
          m_reserved_at = m_limiter.reserve(len, now_ns());
          m_reserved = true;
        }
        if (m_reserved_at > now_ns()) {
          wake_at = m_reserved_at;
          return;
        }
        m_reserved = false;
      }
      // Held requests keep their buffers, so buffers can run out before the queue depth does;
      // an earlier request of each held one's job is still in flight, so this cannot stall.
      if (m_free_reqs.empty())
        return;
      const unsigned r = m_free_reqs.back();
      m_free_reqs.pop_back();
      request& q = m_reqs[r];
      q.busy = true;
      q.held = false;
      q.job = pick;
      q.start = j.next;
      q.len = len;
      q.filled = 0;
      q.t_submit = now_ns();
      j.next += len;
      ++j.outstanding;
      if (j.next >= j.end)
        pop_ready();
      prep_read(r);
    }
  }

  // The ready queue: jobs whose file is open and that still have bytes to request, oldest
  // first; each at most once, so queue_depth entries suffice.
  void push_ready(unsigned i) {
    m_ready[(m_ready_head + m_ready_count) % m_ready.size()] = i;
    ++m_ready_count;
  }
  void pop_ready() {
    m_ready_head = (m_ready_head + 1) % m_ready.size();
    --m_ready_count;
  }
  // Stops a job's further requests (an error, a stop), taking it off the ready queue. Rare.
  void stop_requests(unsigned i) {
    job_state& j = m_jobs[i];
    if (j.next >= j.end)
      return;
    j.next = j.end;
    if (j.opening)
      return; // not queued yet
    std::size_t kept = 0;
    for (std::size_t k = 0; k < m_ready_count; ++k) {
      const unsigned v = m_ready[(m_ready_head + k) % m_ready.size()];
      if (v != i)
        m_ready[(m_ready_head + kept++) % m_ready.size()] = v;
    }
    m_ready_count = kept;
  }

  pull_result start_job(job_source& source) {
    read_job job;
    const pull_result pr = source.pull(m_id, job);
    if (pr != pull_result::job)
      return pr;
    const unsigned i = m_free_jobs.back();
    m_free_jobs.pop_back();
    job_state& j = m_jobs[i];
    j = job_state{};
    j.active = true;
    j.job = job;
    j.t_start = now_ns();
    const read_span span = span_of(job.offset, job.length, m_files.sizes[job.file], m_direct);
    j.next = span.begin;
    j.end = span.end;
    j.deliver = j.next;
    ++m_active;
    m_consumer->on_start(m_id, job);
    if (m_table && m_files.watch && m_files.watch->skipped(job.file))
      skip(j); // checked when the table opened it
    if (!m_table) {
      submit_open(i);
      ++m_st.opens;
    } else if (j.next < j.end) {
      push_ready(i);
    } else {
      maybe_finish(i);
    }
    return pull_result::job;
  }

  // A per-sample open into job slot i's direct descriptor, with O_NOATIME while permitted.
  void submit_open(unsigned i) {
    job_state& j = m_jobs[i];
    io_uring_sqe* s = sqe();
    // Direct descriptors refuse O_CLOEXEC (EINVAL): they are not in the process's table anyway.
    j.open_flags = (m_open_flags & ~O_CLOEXEC) | noatime_flag();
    io_uring_prep_openat_direct(s, AT_FDCWD, m_files.paths[j.job.file].c_str(), j.open_flags, 0, i);
    io_uring_sqe_set_data64(s, kTagOpen | i);
    j.opening = true;
    ++m_inflight;
  }

  void reap() {
    unsigned head;
    unsigned n = 0;
    io_uring_cqe* cqe;
    io_uring_for_each_cqe(&m_ring, head, cqe) {
      ++n;
      complete(cqe->user_data, cqe->res);
    }
    io_uring_cq_advance(&m_ring, n);
  }

  void complete(std::uint64_t tag, int res) {
    if ((tag & ~kTagMask) == kTagCancel)
      return; // how many it found does not matter: each cancelled request completes itself
    if ((tag & ~kTagMask) == kTagClose) {
      const auto i = static_cast<unsigned>(tag & kTagMask);
      --m_inflight;
      if (res < 0 && m_st.errors++ == 0)
        m_st.first_error = fmt::format("close failed: {}", errno_text(-res));
      m_jobs[i].active = false;
      m_jobs[i].closing = false;
      --m_active;
      m_free_jobs.push_back(i);
      return;
    }
    if ((tag & ~kTagMask) == kTagOpen) {
      const auto i = static_cast<unsigned>(tag & kTagMask);
      job_state& j = m_jobs[i];
      --m_inflight;
      j.opening = false;
      if (res < 0 && !j.ended() && noatime_refused(-res, j.open_flags)) {
        submit_open(i); // once a process: the refusal is remembered
        return;
      }
      m_st.open_latency.record(now_ns() - j.t_start);
      if (res < 0) {
        if (m_files.watch &&
            m_files.watch->at_failed_open(-res, j.job.file, m_files.paths[j.job.file]))
          skip(j);
        else if (!j.ended())
          j.error =
              fmt::format("open failed: {}. file: {}", errno_text(-res), m_files.paths[j.job.file]);
        j.next = j.end;
      } else {
        j.opened = true;
        // A direct descriptor has no fstat from user space: the path, just opened, is checked.
        if (m_files.watch && m_files.watch->at_open_path(j.job.file, m_files.paths[j.job.file]))
          skip(j);
        if (j.next < j.end)
          push_ready(i);
      }
      maybe_finish(i);
      return;
    }
    const auto r = static_cast<unsigned>(tag);
    request& q = m_reqs[r];
    job_state& j = m_jobs[q.job];
    --m_inflight;
    q.in_flight = false;
    m_board.end(m_id, r);
    ++m_st.requests;
    const std::uint64_t size = m_files.sizes[j.job.file];
    if ((res == -EAGAIN || res == -EINTR) && !j.ended()) { // not once stopped
      ++m_st.retries;
      prep_read(r);
      return;
    }
    if (res < 0) {
      if (!j.ended())
        j.error = fmt::format("read failed: {}. file: {}; offset: {}; length: {}", errno_text(-res),
                              m_files.paths[j.job.file], q.start + q.filled, q.len - q.filled);
      stop_requests(q.job);
      release(r);
      return;
    }
    q.filled += static_cast<std::uint32_t>(res);
    const std::uint64_t reached = q.start + q.filled;
    if (q.filled < q.len && reached < size) {
      if (res == 0) {
        if (!j.ended())
          j.error = fmt::format("file ended early at {} bytes, expected {} (truncated?). file: {}",
                                reached, size, m_files.paths[j.job.file]);
        stop_requests(q.job);
        release(r);
        return;
      }
      ++m_st.short_reads;
      prep_read(r); // the rest of the request, into the rest of its buffer
      return;
    }
    m_st.read_latency.record(now_ns() - q.t_submit);
    m_st.bytes += q.filled;
    j.bytes += q.filled;
    if (m_ordered && q.start != j.deliver) {
      q.held = true;
      return;
    }
    deliver(r);
    if (m_ordered) {
      // Hand over the held requests that are now next in line.
      for (bool found = true; found;) {
        found = false;
        for (unsigned k = 0; k < m_reqs.size(); ++k) {
          if (m_reqs[k].busy && m_reqs[k].held && m_reqs[k].job == q.job &&
              m_reqs[k].start == j.deliver) {
            deliver(k);
            found = true;
          }
        }
      }
    }
  }

  void deliver(unsigned r) {
    request& q = m_reqs[r];
    job_state& j = m_jobs[q.job];
    if (!j.ended() && q.filled) {
      m_consumer->on_data(m_id, j.job, q.start, q.buf, q.filled);
      if (m_fadvise && m_table)
        drop_cached(m_table->fd(j.job.file), q.start, q.filled);
    }
    j.deliver = q.start + q.len;
    release(r);
  }

  void release(unsigned r) {
    request& q = m_reqs[r];
    const unsigned ji = q.job;
    q.busy = false;
    q.held = false;
    m_free_reqs.push_back(r);
    --m_jobs[ji].outstanding;
    maybe_finish(ji);
  }

  // A job whose file changed since it was indexed: nothing of it is read.
  static void skip(job_state& j) {
    j.skipped = true;
    j.next = j.end;
  }

  void maybe_finish(unsigned i) {
    job_state& j = m_jobs[i];
    if (!j.active || j.closing || j.opening || j.next < j.end)
      return;
    if (j.ended()) {
      // Requests held for ordering behind a failed one are dropped with the job.
      for (unsigned r = 0; r < m_reqs.size(); ++r) {
        request& q = m_reqs[r];
        if (q.busy && q.held && q.job == i) {
          q.busy = false;
          q.held = false;
          m_free_reqs.push_back(r);
          --j.outstanding;
        }
      }
    }
    if (j.outstanding > 0)
      return;
    ++m_st.jobs;
    if (!j.error.empty() && m_st.errors++ == 0)
      m_st.first_error = j.error;
    if (m_table || !j.opened) {
      // A slot whose open failed holds no descriptor: closing it would fail and count the
      // failed open a second time.
      j.active = false;
      --m_active;
      m_free_jobs.push_back(i);
    } else {
      // The slot is reused only after its close completes: an open into a slot whose close is
      // still queued could be closed by it, since a batch has no order without links.
      io_uring_sqe* s = sqe();
      io_uring_prep_close_direct(s, i);
      io_uring_sqe_set_data64(s, kTagClose | i);
      j.closing = true;
      ++m_inflight;
      if (m_fadvise)
        drop_cached_file(m_files.paths[j.job.file]);
    }
    m_consumer->on_done(m_id, j.job, j.bytes, now_ns() - j.t_start, j.outcome(), j.error);
  }

  const engine_options& m_opt;
  const file_set& m_files;
  const file_table* m_table;
  int m_open_flags;
  int m_rw_flags;
  bool m_fadvise;
  bool m_direct;
  rate_limiter& m_limiter;
  reader_stats& m_st;
  inflight_board& m_board;
  reader_guard* m_guard = nullptr;
  std::uint32_t m_request_size; // the option's, or less at low --max-read-rate
  bool m_abandoned = false;
  std::vector<std::string> m_abandoned_reads;
  io_uring m_ring{};
  bool m_ring_ok = false;
  bool m_fixed_bufs = false;
  bool m_fixed_files = false;
  aligned_buffer m_buf;
  std::vector<request> m_reqs;
  std::vector<job_state> m_jobs;
  unsigned m_inflight = 0;
  unsigned m_active = 0;
  std::vector<unsigned> m_free_reqs; // requests whose buffer is free
  std::vector<unsigned> m_free_jobs; // job slots (and, per-sample, file slots) free
  std::vector<unsigned> m_ready;     // ring of ready jobs, see push_ready
  std::size_t m_ready_head = 0;
  std::size_t m_ready_count = 0;
  bool m_reserved = false;
  std::uint64_t m_reserved_at = 0;
  unsigned m_id = 0;
  job_consumer* m_consumer = nullptr;
  bool m_ordered = false;
};

} // namespace

uring_engine::uring_engine(const engine_options& opt, const file_set& files)
    : basic_engine(opt, files) {}

bool uring_engine::available(std::string& why) {
  // As if the kernel refused rings (sysctl kernel.io_uring_disabled, a seccomp filter): for
  // the tests of the psync fallback and of the skips, and for users who must avoid io_uring.
  const char* off = std::getenv("DLSIZE_DISABLE_IO_URING");
  if (off && *off && std::string_view(off) != "0") {
    why = "DLSIZE_DISABLE_IO_URING is set";
    return false;
  }
  io_uring ring{};
  const int rc = io_uring_queue_init(4, &ring, 0);
  if (rc < 0) {
    why = fmt::format("io_uring_queue_init: {}", errno_text(-rc));
    return false;
  }
  io_uring_queue_exit(&ring);
  return true;
}

engine_result uring_engine::run(job_source& source, job_consumer& consumer,
                                const std::atomic<bool>& stop) {
  engine_result res;
  res.readers.resize(m_opt.readers);
  rate_limiter limiter(m_opt.max_read_rate);
  std::vector<std::vector<std::string>> left(m_opt.readers);
  reader_pool pool;
  // The reader's own waits have timeouts; reads it gives up on are named in `left`. A reader
  // held inside a submission is abandoned by the pool (see uring_reader::guarded).
  auto body = [&](unsigned id, reader_guard& guard) {
    uring_reader r(m_opt, m_files, m_table.get(), m_flags, rw_flags(), fadvise_fallback(), direct(),
                   limiter, res.readers[id], m_inflight);
    r.setup();
    const reader_clock clock;
    r.run(source, consumer, stop, pool.failed(), id, guard);
    clock.stop(res.readers[id]);
    left[id] = r.abandoned();
  };
  finish_result(pool.run(m_opt.readers, body, stop), res);
  for (auto& l : left)
    res.abandoned.insert(res.abandoned.end(), l.begin(), l.end());
  return res;
}

} // namespace dlsize::io
