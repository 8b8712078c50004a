#pragma once
// The reader threads of an engine run, started and ended in one place. A reader that the
// kernel holds in a read that never returns (a hung NFS or FUSE server; O_DIRECT on FUSE sits
// in D state even through SIGKILL) cannot be joined: once the run is stopping and such a reader
// has been blocked past the grace, it is abandoned (detached) and named, so that the run can
// still write its report. An abandoned reader touches nothing of the run when it wakes: it finds
// itself abandoned on its way out of the blocking call and returns (its thread holds its own
// copy of the body and the pool's shared block).
#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace dlsize::io {

// What a reader tells the pool around each call that may block in the kernel.
class reader_guard {
public:
  void enter_blocking() { m_phase.store(kBlocked, std::memory_order_release); }
  // False: the pool abandoned this reader meanwhile; it must return at once, touching nothing
  // but its own locals.
  bool leave_blocking() {
    int expected = kBlocked;
    return m_phase.compare_exchange_strong(expected, kRunning, std::memory_order_acq_rel);
  }

private:
  friend class reader_pool;
  static constexpr int kRunning = 1, kBlocked = 0, kAbandoned = 2, kDone = 3;
  std::atomic<int> m_phase{kRunning};
};

struct pool_result {
  std::vector<std::string> errors; // by reader; empty when it ended well
  std::vector<unsigned> abandoned; // readers left blocked in the kernel
};

class reader_pool {
public:
  using body_fn = std::function<void(unsigned id, reader_guard& guard)>;
  // grace_s: how long readers blocked in the kernel are waited for once stop (or a reader's
  // failure) is set.
  explicit reader_pool(double grace_s = 1.0) : m_grace_s(grace_s) {}
  // Runs body on `readers` threads until every one returned or, after a stop, was abandoned.
  // A reader's exception ends it (its text in errors) and sets failed(). Throws run_error when
  // a thread cannot be started (the threads started are stopped and joined first).
  pool_result run(unsigned readers, const body_fn& body, const std::atomic<bool>& stop);
  // Set when a reader failed: the others stop too.
  const std::atomic<bool>& failed() const { return m_shared->failed; }

private:
  struct shared {
    explicit shared(unsigned n) : guards(std::make_unique<reader_guard[]>(n)), errors(n) {}
    std::unique_ptr<reader_guard[]> guards;
    std::vector<std::string> errors;
    std::atomic<bool> failed{false};
  };
  double m_grace_s;
  std::shared_ptr<shared> m_shared = std::make_shared<shared>(0);
};

} // namespace dlsize::io
