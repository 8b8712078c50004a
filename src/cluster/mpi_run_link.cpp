#include "cluster/mpi_run_link.hpp"

#include <unistd.h>

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <fstream>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "cluster/mpi_check.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"

namespace dlsize::cluster {
namespace {

enum : int { kTagStatus = 101, kTagControl = 102, kTagPayload = 103 };
enum class status_kind : std::uint32_t { heartbeat, stop, fail, halted, done };
enum class control_kind : std::uint32_t { alive, halt, finish };
constexpr std::size_t kReasonBytes = 480;
// A rank's pause longer than this (or than the stall timeout, when shorter) is a warning.
constexpr std::uint64_t kPauseWarnNs = 10'000'000'000;
// A rank not heard from for this long is silent: --rank-timeout's, not --stall-timeout's.
constexpr std::uint64_t kQuietNs = 1'000'000'000;
// Rank 0's own stall check waits this much longer than --stall-timeout, so that the stalled
// rank's monitor, which names the stuck file, is the one that ends the run.
constexpr std::uint64_t kStallGraceNs = 500'000'000;

// What a process of this host, by its pid, is doing: for a rank that stopped answering.
std::string process_state(int pid) {
  auto read_line = [](const std::string& path) {
    std::ifstream f(path);
    std::string line;
    std::getline(f, line);
    return line;
  };
  const std::string stat = read_line(fmt::format("/proc/{}/stat", pid));
  const auto close = stat.rfind(')');
  // A pid reused by another program is the rank's process gone too.
  if (close == std::string::npos || close + 2 >= stat.size() ||
      read_line(fmt::format("/proc/{}/comm", pid)) != read_line("/proc/self/comm"))
    return fmt::format("its process, pid {}, is gone: killed or crashed", pid);
  switch (stat[close + 2]) {
  case 'T':
  case 't':
    return fmt::format("its process, pid {}, is stopped: SIGSTOP or a debugger", pid);
  case 'Z':
  case 'X':
    return fmt::format("its process, pid {}, is gone: killed or crashed", pid);
  case 'D':
    return fmt::format("its process, pid {}, waits in the kernel (a hung mount or device?)", pid);
  default:
    return fmt::format("its process, pid {}, runs but its link does not answer: hung", pid);
  }
}

// Rank → rank 0.
struct status_msg {
  std::uint32_t kind = 0;
  std::uint32_t waiting = 0; // 1: a caller of sync() waits (no progress is expected of it)
  std::uint64_t syncs = 0;   // syncs issued so far
  job_counters counters;
  std::int32_t pid = 0;
  std::uint32_t unused = 0;
  std::uint64_t pause_ns = 0;    // the longest time this rank's link did not run
  std::uint64_t pause_at_ns = 0; // ... from when (since the common start)
  char reason[kReasonBytes] = {};
};

// Rank 0 → rank.
struct control_msg {
  std::uint32_t kind = 0;
  std::int32_t origin = -1;
  std::uint32_t failure = 0;
  std::uint32_t broken = 0;
  std::uint64_t target = 0; // finish: the syncs every rank issues before it ends
  std::int32_t pid = 0;
  std::uint32_t unused = 0;
  char reason[kReasonBytes] = {};
};

template <std::size_t N> void put_reason(char (&dst)[N], const std::string& s) {
  const std::size_t n = std::min(s.size(), N - 1);
  std::memcpy(dst, s.data(), n);
  dst[n] = '\0';
}

// One MPI_Iallreduce of a sync, with its buffers.
struct sync_op {
  std::uint64_t in[2] = {0, 0}; // end ns since the start, halted flag
  std::uint64_t out[2] = {0, 0};
  MPI_Request req = MPI_REQUEST_NULL;
  bool for_caller = false; // a caller of sync() waits for it (false: an empty drain sync)
};

struct pending_send {
  std::unique_ptr<std::byte[]> buf;
  MPI_Request req = MPI_REQUEST_NULL;
};

class mpi_run_link final : public run_link {
public:
  mpi_run_link(MPI_Comm world, const communicator& comm, run_link_options opt)
      : m_world(world), m_comm(comm), m_opt(std::move(opt)), m_rank(comm.rank()),
        m_size(comm.size()), m_timeout_ns(static_cast<std::uint64_t>(comm.timeout_s() * 1e9)),
        m_beat_ns(static_cast<std::uint64_t>(m_opt.heartbeat_s * 1e9)),
        m_stall_ns(static_cast<std::uint64_t>(m_opt.stall_timeout_s * 1e9)) {}

  ~mpi_run_link() override {
    if (!m_thread.joinable())
      return;
    {
      std::lock_guard lk(m_m);
      m_abandon = true;
    }
    m_wake.notify_all();
    m_thread.join();
  }

  std::uint64_t start() override {
    MPI_Request r;
    DLSIZE_MPI(MPI_Comm_idup(m_world, &m_ctl, &r));
    wait_request(r, timeout_s(), "run start");
    DLSIZE_MPI(MPI_Comm_idup(m_world, &m_sync, &r));
    wait_request(r, timeout_s(), "run start");
    DLSIZE_MPI(MPI_Comm_set_errhandler(m_ctl, MPI_ERRORS_RETURN));
    DLSIZE_MPI(MPI_Comm_set_errhandler(m_sync, MPI_ERRORS_RETURN));
    DLSIZE_MPI(MPI_Ibarrier(m_ctl, &r));
    wait_request(r, timeout_s(), "run start");
    const std::uint64_t t0 = now_ns();
    m_t0 = t0;
    const auto n = static_cast<std::size_t>(m_size);
    m_last_seen.assign(n, t0);
    m_final.assign(n, false);
    m_dead.assign(n, false);
    m_syncs_of.assign(n, 0);
    m_counters_of.assign(n, {});
    m_progress_at.assign(n, t0);
    m_progress_of.assign(n, {});
    m_pid_of.assign(n, 0);
    m_pause_of.assign(n, {});
    m_activity_of.assign(n, {});
    m_thread = std::thread([this] { guarded_loop(); });
    return t0;
  }

  sync_result sync(std::uint64_t local_end_ns) override {
    std::unique_lock lk(m_m);
    if (m_halted)
      return {local_end_ns, true};
    m_req_value = local_end_ns;
    m_req_pending = true;
    m_req_issued = false;
    m_req_answered = false;
    m_wake.notify_all();
    m_answer.wait(lk, [&] { return m_req_answered; });
    m_req_pending = false;
    return m_req_result;
  }

  void fail(const std::string& reason) override { event(status_kind::fail, reason); }
  void stop(const std::string& reason) override { event(status_kind::stop, reason); }

  job_counters totals() override {
    if (m_rank != 0)
      return m_opt.counters ? m_opt.counters() : job_counters{};
    std::lock_guard lk(m_counters_m);
    job_counters t;
    for (const auto& c : m_counters_of) {
      t.bytes += c.bytes;
      t.samples += c.samples;
      t.compute_ns += c.compute_ns;
    }
    t.steps = m_counters_of.empty() ? 0 : m_counters_of[0].steps;
    return t;
  }

  run_outcome finish(const std::string& payload) override {
    {
      std::lock_guard lk(m_m);
      m_local_done = true;
    }
    m_wake.notify_all();
    if (m_thread.joinable())
      m_thread.join();
    run_outcome o;
    o.halted = m_halt_applied;
    o.failed = m_failure;
    o.reason = m_reason;
    o.origin = m_origin;
    o.broken = m_broken;
    o.root_lost = m_root_lost;
    m_payload = payload; // kept until the link goes: a send may still read it
    if (m_rank == 0) {
      gather_payloads(m_payload, o);
      o.pauses = long_pauses();
    } else
      send_payload(m_payload, o);
    if (!o.broken) {
      MPI_Comm_free(&m_ctl);
      MPI_Comm_free(&m_sync);
    }
    return o;
  }

private:
  double timeout_s() const { return static_cast<double>(m_timeout_ns) * 1e-9; }

  void event(status_kind kind, const std::string& reason) {
    {
      std::lock_guard lk(m_m);
      // A failure outranks a stop asked for earlier; otherwise the first event is kept.
      if (m_event_set && !(kind == status_kind::fail && m_event_kind == status_kind::stop))
        return;
      m_event_set = true;
      m_event_sent = false;
      m_event_kind = kind;
      m_event_reason = reason;
    }
    m_wake.notify_all();
  }

  void guarded_loop() {
    try {
      loop();
    } catch (const std::exception& e) {
      m_broken = true;
      apply_halt(fmt::format("the run's MPI coordination failed: {}", e.what()), true, m_rank);
    }
  }

  void loop() {
    std::uint64_t next_beat = now_ns(), last_pass = next_beat;
    std::uint64_t polls = 0; // passes since a sync was issued or completed
    for (;;) {
      const std::size_t in_flight = m_syncs.size();
      const std::uint64_t issued = m_issued;
      progress_syncs();
      serve_request();
      receive();
      handle_local();
      const std::uint64_t t = now_ns();
      // This thread itself did not run for long (the process was stopped, the host stalled):
      // the others' silence meanwhile says nothing about them. The pause is kept for the report.
      if (t - last_pass > std::min(m_timeout_ns / 2, kQuietNs)) {
        if (t - last_pass > m_pause_ns) {
          m_pause_ns = t - last_pass;
          m_pause_at_ns = last_pass - m_t0;
        }
        restart_clocks(t);
      }
      last_pass = t;
      if (t >= next_beat) {
        beat();
        next_beat = t + m_beat_ns;
      }
      check_timeouts(t);
      if (m_ended)
        break;
      if (m_draining) {
        while (m_issued < m_target)
          issue_sync(0, true, false);
        if (m_syncs.empty())
          break;
        if (t > m_drain_deadline) {
          // A rank never issued its last syncs: the job cannot end cleanly.
          m_broken = true;
          apply_halt(
              fmt::format("the ranks' last syncs did not complete within {:g} s (a rank hung "
                          "after the run ended)",
                          timeout_s()),
              true, m_rank);
          break;
        }
      }
      test_sends();
      {
        std::unique_lock lk(m_m);
        if (m_abandon)
          return;
        if (!m_syncs.empty() || m_draining) {
          lk.unlock();
          // A sync in flight: MPI progresses only while it is tested. Fast at first (the others
          // usually arrive within a millisecond), then backing off, so that ranks waiting long
          // for a slow one do not burn the cores the run needs.
          polls = m_syncs.size() != in_flight || m_issued != issued ? 0 : polls + 1;
          usleep(polls < 50 ? 20 : polls < 250 ? 100 : 500);
        } else {
          // Idle: local work (a sync asked for, an event, the end) wakes this thread at once;
          // messages from the other ranks wait for the next pass: at most 20 ms while this
          // rank runs (shorter passes cost the readers on a host of many ranks, a wake-up
          // each per rank), 1 ms once it is done, so that the end's exchanges are quick.
          polls = 0;
          m_wake.wait_for(lk, std::chrono::milliseconds(m_local_done ? 1 : 20),
                          [&] { return local_work_locked(); });
        }
      }
    }
    // What was sent before the end is delivered before the payloads (same pair, in order).
    if (!m_broken) {
      const std::uint64_t deadline = now_ns() + m_timeout_ns;
      while (!m_sends.empty() && now_ns() < deadline) {
        test_sends();
        usleep(50);
      }
    }
  }

  // --- syncs ---------------------------------------------------------------------------------

  void issue_sync(std::uint64_t end_ns, bool halted, bool for_caller) {
    auto op = std::make_unique<sync_op>();
    op->in[0] = end_ns;
    op->in[1] = halted ? 1 : 0;
    op->for_caller = for_caller;
    DLSIZE_MPI(MPI_Iallreduce(op->in, op->out, 2, MPI_UINT64_T, MPI_MAX, m_sync, &op->req));
    ++m_issued;
    m_syncs.push_back(std::move(op));
  }

  void serve_request() {
    std::lock_guard lk(m_m);
    if (!m_req_pending || m_req_issued || m_req_answered)
      return;
    if (m_halted) {
      answer_locked({m_req_value, true});
      return;
    }
    issue_sync(m_req_value, false, true);
    m_req_issued = true;
  }

  void progress_syncs() {
    while (!m_syncs.empty()) {
      int done = 0;
      DLSIZE_MPI(MPI_Test(&m_syncs.front()->req, &done, MPI_STATUS_IGNORE));
      if (!done)
        return;
      const auto op = std::move(m_syncs.front());
      m_syncs.pop_front();
      if (!op->for_caller)
        continue;
      std::lock_guard lk(m_m);
      if (m_req_pending && !m_req_answered)
        answer_locked({op->out[0], op->out[1] != 0 || m_halted});
    }
  }

  void answer_locked(sync_result r) {
    m_req_result = r;
    m_req_answered = true;
    // A caller's sync still in flight is finished by the drain, no longer for the caller.
    for (auto& op : m_syncs)
      op->for_caller = false;
    m_answer.notify_all();
  }

  // --- messages ------------------------------------------------------------------------------

  template <class T> void send(int dest, int tag, const T& msg) {
    pending_send s;
    s.buf = std::make_unique<std::byte[]>(sizeof(T));
    std::memcpy(s.buf.get(), &msg, sizeof(T));
    DLSIZE_MPI(
        MPI_Isend(s.buf.get(), static_cast<int>(sizeof(T)), MPI_BYTE, dest, tag, m_ctl, &s.req));
    m_sends.push_back(std::move(s));
  }

  void test_sends() {
    while (!m_sends.empty()) {
      int done = 0;
      DLSIZE_MPI(MPI_Test(&m_sends.front().req, &done, MPI_STATUS_IGNORE));
      if (!done)
        return;
      m_sends.pop_front();
    }
  }

  void send_status(status_kind kind, const std::string& reason = "") {
    status_msg m;
    m.kind = static_cast<std::uint32_t>(kind);
    m.syncs = m_issued;
    m.waiting = caller_waits() ? 1 : 0;
    m.pid = static_cast<std::int32_t>(getpid());
    m.pause_ns = m_pause_ns;
    m.pause_at_ns = m_pause_at_ns;
    if (m_opt.counters)
      m.counters = m_opt.counters();
    put_reason(m.reason, reason);
    send(0, kTagStatus, m);
  }

  void send_control(control_kind kind, std::uint64_t target = 0) {
    control_msg m;
    m.kind = static_cast<std::uint32_t>(kind);
    m.origin = m_origin;
    m.failure = m_failure ? 1 : 0;
    m.broken = m_broken ? 1 : 0;
    m.target = target;
    m.pid = static_cast<std::int32_t>(getpid());
    put_reason(m.reason, m_reason);
    for (int r = 1; r < m_size; ++r)
      if (!m_dead[static_cast<std::size_t>(r)])
        send(r, kTagControl, m);
  }

  void receive() {
    for (;;) {
      int flag = 0;
      MPI_Status st;
      if (m_rank == 0) {
        DLSIZE_MPI(MPI_Iprobe(MPI_ANY_SOURCE, kTagStatus, m_ctl, &flag, &st));
        if (!flag)
          return;
        status_msg m;
        DLSIZE_MPI(
            MPI_Recv(&m, sizeof m, MPI_BYTE, st.MPI_SOURCE, kTagStatus, m_ctl, MPI_STATUS_IGNORE));
        m.reason[kReasonBytes - 1] = '\0';
        on_status(st.MPI_SOURCE, m);
      } else {
        DLSIZE_MPI(MPI_Iprobe(0, kTagControl, m_ctl, &flag, &st));
        if (!flag)
          return;
        control_msg m;
        DLSIZE_MPI(MPI_Recv(&m, sizeof m, MPI_BYTE, 0, kTagControl, m_ctl, MPI_STATUS_IGNORE));
        m.reason[kReasonBytes - 1] = '\0';
        on_control(m);
      }
    }
  }

  // Work the callers handed over that this thread has not taken up (m_m held).
  bool local_work_locked() const {
    return m_abandon || (m_req_pending && !m_req_issued && !m_req_answered) ||
           (m_event_set && !m_event_sent) || (m_local_done && !m_done_sent);
  }

  // This rank's own events and end, as messages (rank 0 takes its own directly).
  void handle_local() {
    bool send_event = false, send_done = false;
    status_kind kind = status_kind::stop;
    std::string reason;
    {
      std::lock_guard lk(m_m);
      if (m_event_set && !m_event_sent) {
        m_event_sent = send_event = true;
        kind = m_event_kind;
        reason = m_event_reason;
      }
      if (m_local_done && !m_done_sent)
        m_done_sent = send_done = true;
    }
    if (m_rank == 0) {
      status_msg m;
      m.syncs = m_issued;
      if (send_event) {
        m.kind = static_cast<std::uint32_t>(kind);
        put_reason(m.reason, reason);
        on_status(0, m);
      }
      if (send_done) {
        m.kind = static_cast<std::uint32_t>(status_kind::done);
        on_status(0, m);
      }
    } else if (!m_finish_seen) {
      if (send_event)
        send_status(kind, reason);
      if (send_done)
        send_status(status_kind::done);
    }
  }

  void beat() {
    if (m_rank == 0) {
      {
        std::lock_guard lk(m_counters_m);
        if (m_opt.counters)
          m_counters_of[0] = m_opt.counters();
      }
      note_progress(0, m_counters_of[0], caller_waits());
      if (m_opt.activity)
        m_activity_of[0] = {now_ns(), m_opt.activity()};
    }
    if (m_rank == 0 && !m_finish_sent)
      send_control(control_kind::alive);
    if (m_rank != 0 && !m_finish_seen)
      send_status(status_kind::heartbeat, m_opt.activity ? m_opt.activity() : "");
  }

  void check_timeouts(std::uint64_t t) {
    if (m_rank != 0) {
      if (!m_finish_seen && t > m_last_seen[0] + m_timeout_ns) {
        m_broken = true;
        m_root_lost = true;
        m_ended = true;
        apply_halt(fmt::format("{} has not answered for {:g} s ({})", m_comm.rank_name(0),
                               timeout_s(), why_silent(0)),
                   true, 0);
      }
      return;
    }
    if (m_finish_sent)
      return;
    check_silent(t);
    // A rank that answers but neither reads nor steps, and waits for no one: its readers or
    // accelerators are stuck (a hung mount or device). A silent rank is --rank-timeout's.
    for (int r = 0; r < m_size && !m_halt_decided && m_stall_ns; ++r) {
      const auto i = static_cast<std::size_t>(r);
      if (m_dead[i] || m_final[i] || t <= m_progress_at[i] + m_stall_ns + kStallGraceNs ||
          (r != 0 && t > m_last_seen[i] + kQuietNs))
        continue;
      decide_halt(r, true,
                  fmt::format("made no progress for {:g} s (--stall-timeout): no byte read, no "
                              "step taken, not waiting for the others (a hung mount or device?){}",
                              static_cast<double>(m_stall_ns) * 1e-9, last_word(i)));
    }
    check_finish();
  }

  // --- rank 0 --------------------------------------------------------------------------------

  // Ranks silent for the timeout are given up. The one silent the longest stopped answering
  // first: the job's halt is its; the others are named with it (on one host a dead rank can take
  // others with it: the launcher's cleanup).
  void check_silent(std::uint64_t t) {
    std::vector<int> silent;
    for (int r = 1; r < m_size; ++r) {
      const auto i = static_cast<std::size_t>(r);
      if (!m_dead[i] && t > m_last_seen[i] + m_timeout_ns)
        silent.push_back(r);
    }
    if (silent.empty())
      return;
    std::stable_sort(silent.begin(), silent.end(), [&](int a, int b) {
      return m_last_seen[static_cast<std::size_t>(a)] < m_last_seen[static_cast<std::size_t>(b)];
    });
    std::string reason =
        fmt::format("has not answered for {:g} s ({})", timeout_s(), why_silent(silent[0]));
    for (std::size_t k = 1; k < silent.size(); ++k)
      reason += fmt::format("; {} is silent too ({})", m_comm.rank_name(silent[k]),
                            why_silent(silent[k]));
    for (int r : silent)
      m_dead[static_cast<std::size_t>(r)] = true;
    m_broken = true;
    decide_halt(silent[0], true, reason);
  }

  // Why a rank may be silent: what its process is doing when it runs on this host.
  std::string why_silent(int r) const {
    const auto i = static_cast<std::size_t>(r);
    const auto& w = m_comm.where();
    const std::string state =
        m_pid_of[i] > 0 && i < w.rank_hosts.size() && w.rank_hosts[i] == w.host
            ? process_state(m_pid_of[i])
            : "the process hung, died or lost its link";
    return state + last_word(i);
  }

  // What rank i said it was doing at its last heartbeat, and when it last made progress.
  std::string last_word(std::size_t i) const {
    const auto& [at, text] = m_activity_of[i];
    if (text.empty())
      return "";
    const std::uint64_t t = now_ns();
    return fmt::format("; {:.1f} s before, it was at {}; its last progress {:.1f} s before",
                       static_cast<double>(t - std::min(t, at)) * 1e-9, text,
                       static_cast<double>(t - std::min(t, m_progress_at[i])) * 1e-9);
  }

  // Every rank's longest pause, where it outlasted the lesser of the stall timeout (half the
  // rank timeout when there is none) and 10 s: its figures include a time it did not run.
  std::vector<rank_pause> long_pauses() {
    m_pause_of[0] = {m_pause_ns, m_pause_at_ns};
    const std::uint64_t limit = std::min(m_stall_ns ? m_stall_ns : m_timeout_ns / 2, kPauseWarnNs);
    std::vector<rank_pause> out;
    for (int r = 0; r < m_size; ++r) {
      const auto& [ns, at] = m_pause_of[static_cast<std::size_t>(r)];
      if (ns > limit)
        out.push_back({r, static_cast<double>(ns) * 1e-9, static_cast<double>(at) * 1e-9});
    }
    return out;
  }

  void on_status(int from, const status_msg& m) {
    const auto i = static_cast<std::size_t>(from);
    if (m_dead[i])
      return; // given up on; it woke too late
    const std::uint64_t t = now_ns();
    if (from != 0) {
      // Back from a silence (stopped, or its host stalled): its progress is timed from now.
      if (t > m_last_seen[i] + kQuietNs)
        m_progress_at[i] = t;
      m_pid_of[i] = m.pid;
      if (m.pause_ns > m_pause_of[i].first)
        m_pause_of[i] = {m.pause_ns, m.pause_at_ns};
      {
        std::lock_guard lk(m_counters_m);
        m_counters_of[i] = m.counters;
      }
      note_progress(i, m.counters, m.waiting != 0);
    }
    m_last_seen[i] = t;
    if (m_finish_sent)
      return; // the job is ending already: a late stop changes nothing
    switch (static_cast<status_kind>(m.kind)) {
    case status_kind::heartbeat:
      if (m.reason[0])
        m_activity_of[i] = {t, m.reason};
      break;
    case status_kind::stop:
    case status_kind::fail: {
      const bool failure = static_cast<status_kind>(m.kind) == status_kind::fail;
      if (!m_halt_decided) {
        decide_halt(from, failure, m.reason);
      } else if (failure && !m_failure) {
        // The halt was a stop; a failure that follows is what the report must say.
        m_failure = true;
        m_origin = from;
        m_reason = m.reason;
      }
      break;
    }
    case status_kind::halted:
    case status_kind::done:
      m_final[i] = true;
      m_syncs_of[i] = m.syncs;
      break;
    }
    check_finish();
  }

  // Rank i's counters moved, or it waits in a sync: it is making progress.
  void note_progress(std::size_t i, const job_counters& c, bool waiting) {
    const job_counters& was = m_progress_of[i];
    if (waiting || c.bytes != was.bytes || c.steps != was.steps || c.samples != was.samples)
      m_progress_at[i] = now_ns();
    m_progress_of[i] = c;
  }

  void restart_clocks(std::uint64_t t) {
    std::fill(m_last_seen.begin(), m_last_seen.end(), t);
    std::fill(m_progress_at.begin(), m_progress_at.end(), t);
    if (m_draining)
      m_drain_deadline = t + m_timeout_ns;
  }

  bool caller_waits() {
    std::lock_guard lk(m_m);
    return m_req_pending && !m_req_answered;
  }

  void decide_halt(int origin, bool failure, const std::string& reason) {
    if (m_halt_decided)
      return;
    m_halt_decided = true;
    m_origin = origin;
    m_failure = failure;
    m_reason = reason;
    send_control(control_kind::halt);
    apply_halt(reason, failure, origin);
  }

  void check_finish() {
    if (m_finish_sent)
      return;
    for (int r = 0; r < m_size; ++r) {
      const auto i = static_cast<std::size_t>(r);
      if (!m_final[i] && !m_dead[i])
        return;
    }
    m_finish_sent = true;
    if (m_broken) {
      // A rank is gone: the syncs cannot be matched any more. Everyone sends what it has.
      send_control(control_kind::finish);
      m_ended = true;
      return;
    }
    m_target = *std::max_element(m_syncs_of.begin(), m_syncs_of.end());
    send_control(control_kind::finish, m_target);
    m_draining = true;
    m_drain_deadline = now_ns() + m_timeout_ns;
  }

  // --- every rank ----------------------------------------------------------------------------

  void on_control(const control_msg& m) {
    m_last_seen[0] = now_ns();
    m_pid_of[0] = m.pid;
    switch (static_cast<control_kind>(m.kind)) {
    case control_kind::alive:
      break;
    case control_kind::halt:
      m_origin = m.origin;
      m_failure = m.failure != 0;
      m_reason = m.reason;
      apply_halt(m.reason, m.failure != 0, m.origin);
      break;
    case control_kind::finish:
      m_finish_seen = true;
      m_failure = m.failure != 0 || m_failure;
      if (m.broken) {
        m_broken = true;
        m_ended = true;
        if (!m_halt_applied)
          apply_halt(m.reason, true, m.origin);
      } else {
        m_target = m.target;
        m_draining = true;
        m_drain_deadline = now_ns() + m_timeout_ns;
      }
      break;
    }
  }

  // The job halts here: callers of sync() are answered at once, no caller's sync is issued from
  // now on, rank 0 learns how many this rank issued, and the run is told.
  void apply_halt(const std::string& reason, bool failure, int origin) {
    if (m_halt_applied)
      return;
    m_halt_applied = true;
    if (m_reason.empty()) {
      m_reason = reason;
      m_failure = failure;
      m_origin = origin;
    }
    {
      std::lock_guard lk(m_m);
      m_halted = true; // no caller's sync is issued from now on
    }
    // The run is told first, so that a caller answered below finds it halted and stops there.
    if (m_opt.on_halt)
      m_opt.on_halt(m_size > 1 ? m_comm.rank_name(origin) + ": " + reason : reason, failure);
    {
      std::lock_guard lk(m_m);
      if (m_req_pending && !m_req_answered)
        answer_locked({m_req_value, true});
    }
    if (m_rank == 0) {
      m_final[0] = true;
      m_syncs_of[0] = m_issued;
    } else if (!m_broken) {
      send_status(status_kind::halted);
    }
  }

  // --- the end -------------------------------------------------------------------------------

  void gather_payloads(const std::string& mine, run_outcome& o) {
    o.payloads.assign(static_cast<std::size_t>(m_size), "");
    o.payloads[0] = mine;
    std::vector<bool> got(static_cast<std::size_t>(m_size), false);
    got[0] = true;
    int left = 0;
    for (int r = 1; r < m_size; ++r)
      left += m_dead[static_cast<std::size_t>(r)] ? 0 : 1;
    const std::uint64_t deadline = now_ns() + m_timeout_ns;
    while (left > 0 && now_ns() < deadline) {
      int flag = 0;
      MPI_Status st;
      DLSIZE_MPI(MPI_Iprobe(MPI_ANY_SOURCE, kTagPayload, m_ctl, &flag, &st));
      if (flag) {
        int count = 0;
        DLSIZE_MPI(MPI_Get_count(&st, MPI_CHAR, &count));
        std::string s(static_cast<std::size_t>(count), '\0');
        DLSIZE_MPI(MPI_Recv(s.data(), count, MPI_CHAR, st.MPI_SOURCE, kTagPayload, m_ctl,
                            MPI_STATUS_IGNORE));
        const auto i = static_cast<std::size_t>(st.MPI_SOURCE);
        // A rank given up on that answers after all is taken, but was not waited for.
        if (!got[i] && !m_dead[i])
          --left;
        got[i] = true;
        o.payloads[i] = std::move(s);
        continue;
      }
      if (drain_status())
        continue;
      usleep(100);
    }
    // Heartbeats a rank sent before it saw the finish come before its results: none is left
    // unreceived when the communicator is freed.
    while (drain_status()) {
    }
    for (int r = 0; r < m_size; ++r)
      if (!got[static_cast<std::size_t>(r)])
        o.missing.push_back(r);
    if (!o.missing.empty())
      o.broken = true;
  }

  // Receives one status message sent before its rank saw the finish; false when none waits.
  bool drain_status() {
    int flag = 0;
    MPI_Status st;
    DLSIZE_MPI(MPI_Iprobe(MPI_ANY_SOURCE, kTagStatus, m_ctl, &flag, &st));
    if (!flag)
      return false;
    status_msg m;
    DLSIZE_MPI(
        MPI_Recv(&m, sizeof m, MPI_BYTE, st.MPI_SOURCE, kTagStatus, m_ctl, MPI_STATUS_IGNORE));
    return true;
  }

  void send_payload(const std::string& mine, run_outcome& o) {
    MPI_Request req;
    DLSIZE_MPI(MPI_Isend(mine.data(), static_cast<int>(mine.size()), MPI_CHAR, 0, kTagPayload,
                         m_ctl, &req));
    try {
      wait_request(req, timeout_s(), "sending this rank's results to rank 0");
    } catch (const run_error&) {
      o.broken = true;
    }
  }

  MPI_Comm m_world, m_ctl = MPI_COMM_NULL, m_sync = MPI_COMM_NULL;
  const communicator& m_comm;
  run_link_options m_opt;
  const int m_rank, m_size;
  const std::uint64_t m_timeout_ns, m_beat_ns, m_stall_ns;
  std::thread m_thread;

  // Shared with the run's threads, under m_m.
  std::mutex m_m;
  std::condition_variable m_wake, m_answer;
  bool m_halted = false, m_abandon = false, m_local_done = false, m_done_sent = false;
  bool m_req_pending = false, m_req_issued = false, m_req_answered = false;
  std::uint64_t m_req_value = 0;
  sync_result m_req_result;
  bool m_event_set = false, m_event_sent = false;
  status_kind m_event_kind = status_kind::stop;
  std::string m_event_reason;

  // The link's thread alone (read by finish() after it ended).
  std::deque<std::unique_ptr<sync_op>> m_syncs;
  std::deque<pending_send> m_sends;
  std::uint64_t m_issued = 0, m_target = 0;
  bool m_draining = false, m_ended = false, m_broken = false;
  bool m_halt_applied = false, m_halt_decided = false, m_failure = false;
  bool m_finish_sent = false, m_finish_seen = false;
  int m_origin = -1;
  std::string m_reason;
  std::vector<std::uint64_t> m_last_seen; // rank 0: every rank; others: [0] is rank 0
  std::vector<bool> m_final, m_dead;
  std::vector<std::uint64_t> m_syncs_of;
  std::mutex m_counters_m;
  std::vector<job_counters> m_counters_of;
  std::vector<std::uint64_t> m_progress_at; // rank 0: when each rank last made progress
  std::vector<job_counters> m_progress_of;
  std::uint64_t m_drain_deadline = 0;
  bool m_root_lost = false;
  std::uint64_t m_t0 = 0;
  std::vector<int> m_pid_of; // rank 0: every rank's, as it said; others: [0] is rank 0's
  std::uint64_t m_pause_ns = 0, m_pause_at_ns = 0;                 // this rank's longest pause
  std::vector<std::pair<std::uint64_t, std::uint64_t>> m_pause_of; // rank 0: every rank's
  // rank 0: when each rank last said what it was doing, and what (run_link_options::activity)
  std::vector<std::pair<std::uint64_t, std::string>> m_activity_of;
  std::string m_payload;
};

} // namespace

std::unique_ptr<run_link> make_mpi_run_link(MPI_Comm world, const communicator& comm,
                                            run_link_options opt) {
  return std::make_unique<mpi_run_link>(world, comm, std::move(opt));
}

} // namespace dlsize::cluster
