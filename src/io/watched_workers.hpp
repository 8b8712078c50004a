#pragma once
// Worker threads that do blocking file I/O outside the engines (datagen's writers, verify's
// readers), watched so that the command always ends: a signal or a stall (no call finished for
// --stall-timeout while one waits in the kernel, as on a hung NFS or FUSE server) stops them,
// and a worker the kernel will not release is abandoned (io::reader_pool), not joined, and named
// with the file it waits on.
#include <atomic>
#include <cerrno>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "io/reader_pool.hpp"

namespace dlsize::io {

class worker_watch;

// One worker's view of the watch: it wraps every call that may block in blocking(), and stops
// taking work when halted().
class worker_context {
public:
  worker_context(unsigned id, reader_guard& guard, worker_watch& watch)
      : m_id(id), m_guard(guard), m_watch(watch) {}
  unsigned id() const { return m_id; }
  bool halted() const;
  // Runs call (a system call that may block in the kernel, or a request that may wait on a
  // server; errno is kept) and returns what it returns; what says what it does, for the stall
  // message ("a write of FILE at offset 0"). A call that throws has finished too: the watch sees
  // it end before the exception goes on, and once the watch has halted the workers (a stall, a
  // signal, another worker's failure) the call's exception is not this worker's failure: the
  // worker ends quietly. Throws when the watch abandoned this worker meanwhile: the worker then
  // touches nothing.
  template <class F> auto blocking(const std::string& what, F&& call) {
    begin(what);
    m_guard.enter_blocking();
    auto r = guarded(call);
    const int err = errno;
    leave();
    errno = err;
    return r;
  }
  // The watch's halt flag, for a call that can end itself early (an S3 client's stop).
  const std::atomic<bool>& halt_flag() const;

private:
  template <class F> auto guarded(F& call) {
    try {
      return call();
    } catch (...) {
      left_by_exception(); // throws instead when the watch halted the workers
      throw;
    }
  }
  void begin(const std::string& what);
  void leave();
  void left_by_exception();
  unsigned m_id;
  reader_guard& m_guard;
  worker_watch& m_watch;
};

// How a watched run ended.
struct watched_result {
  std::vector<std::string> errors;    // by worker: the exception text of one that failed
  std::string stalled;                // set when a stall stopped the run: who waited on what
  std::vector<std::string> abandoned; // workers left in the kernel, each with its call
  bool interrupted = false;           // a signal stopped the run
  // The first worker's error, or "".
  std::string first_error() const;
};

// The watch itself (what workers report to); run_watched makes it.
class worker_watch {
public:
  explicit worker_watch(unsigned workers);
  const std::atomic<bool>& halt() const { return m_halt; }
  void set_halt() { m_halt.store(true, std::memory_order_release); }
  // The call that has waited the longest, if for at least min_s: "writer 0 has waited 61.2 s for
  // a write of FILE at offset O".
  std::string oldest_call(double min_s, const std::string& role) const;
  // Seconds since a call last finished (or the watch began).
  double idle_s() const;
  // "writer 0: a write of FILE at offset O" for a worker now in a call.
  std::string call_of(unsigned worker, const std::string& role) const;

private:
  friend class worker_context;
  // One per worker, each with its own lock: a scan makes a call per file, and one lock for all
  // the workers made them wait on each other.
  struct slot {
    mutable std::mutex mu;
    std::string what;        // the call in flight; empty when none
    std::uint64_t since = 0; // now_ns() when it began
  };
  std::unique_ptr<slot[]> m_slots;
  std::size_t m_workers;
  std::atomic<std::uint64_t> m_last_end_ns{0};
  std::atomic<bool> m_halt{false};
};

// Runs body on `workers` threads while the calling thread calls tick() every 100 ms (a
// progress line) and watches them: a signal (stop_requested), a worker's failure, or a stall
// (stall_timeout_s > 0: no call finished for that long while one waits) halts every worker;
// workers still blocked a second later are abandoned. role names a worker in messages
// ("writer", "reader"). Throws run_error when the threads cannot be started.
watched_result run_watched(unsigned workers, const std::function<void(worker_context&)>& body,
                           double stall_timeout_s, const std::string& role,
                           const std::function<void()>& tick);

} // namespace dlsize::io
