#include "io/watched_workers.hpp"

#include <chrono>
#include <exception>
#include <stdexcept>
#include <thread>

#include <fmt/format.h>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/stop.hpp"

namespace dlsize::io {
namespace {

// Thrown by a worker that finds itself abandoned on its way out of the kernel; the pool drops
// it without a word (the worker's phase says it was abandoned).
struct abandoned_worker : std::exception {
  const char* what() const noexcept override { return "abandoned"; }
};

// Thrown in place of a call's exception once the watch has halted the workers: the call was
// ended by the halt, and the worker's body ends without an error of its own.
struct halted_call : std::exception {
  const char* what() const noexcept override { return "halted"; }
};

} // namespace

bool worker_context::halted() const {
  return m_watch.halt().load(std::memory_order_acquire);
}

void worker_context::begin(const std::string& what) {
  auto& s = m_watch.m_slots[m_id];
  std::lock_guard lk(s.mu);
  s.what.assign(what); // into the slot's own buffer: no allocation per call
  s.since = now_ns();
}

const std::atomic<bool>& worker_context::halt_flag() const {
  return m_watch.halt();
}

void worker_context::leave() {
  if (!m_guard.leave_blocking())
    throw abandoned_worker();
  {
    auto& s = m_watch.m_slots[m_id];
    std::lock_guard lk(s.mu);
    s.what.clear();
  }
  m_watch.m_last_end_ns.store(now_ns(), std::memory_order_release);
}

void worker_context::left_by_exception() {
  leave();
  if (halted())
    throw halted_call();
}

std::string watched_result::first_error() const {
  for (const auto& e : errors)
    if (!e.empty())
      return e;
  return "";
}

worker_watch::worker_watch(unsigned workers)
    : m_slots(std::make_unique<slot[]>(workers)), m_workers(workers), m_last_end_ns(now_ns()) {}

std::string worker_watch::oldest_call(double min_s, const std::string& role) const {
  const std::uint64_t t = now_ns();
  std::size_t oldest = m_workers;
  std::uint64_t since = 0;
  std::string what;
  for (std::size_t i = 0; i < m_workers; ++i) {
    std::lock_guard lk(m_slots[i].mu);
    if (!m_slots[i].what.empty() && (oldest == m_workers || m_slots[i].since < since)) {
      oldest = i;
      since = m_slots[i].since;
      what = m_slots[i].what;
    }
  }
  if (oldest == m_workers)
    return "";
  const double waited = static_cast<double>(t - since) * 1e-9;
  if (waited < min_s)
    return "";
  return fmt::format("{} {} has waited {:.1f} s for {}", role, oldest, waited, what);
}

double worker_watch::idle_s() const {
  return static_cast<double>(now_ns() - m_last_end_ns.load(std::memory_order_acquire)) * 1e-9;
}

std::string worker_watch::call_of(unsigned worker, const std::string& role) const {
  if (worker >= m_workers)
    throw std::out_of_range("worker_watch::call_of");
  std::lock_guard lk(m_slots[worker].mu);
  return fmt::format("{} {}: {}", role, worker, m_slots[worker].what);
}

watched_result run_watched(unsigned workers, const std::function<void(worker_context&)>& body,
                           double stall_timeout_s, const std::string& role,
                           const std::function<void()>& tick) {
  // Shared with the workers' threads: an abandoned worker may outlive this call (it touches the
  // watch only while it is not abandoned, but its context refers to it).
  auto watch = std::make_shared<worker_watch>(workers);
  reader_pool pool;
  pool_result ran;
  std::string start_error;
  std::atomic<bool> done{false};
  std::thread runner([&] {
    try {
      ran = pool.run(
          workers,
          [watch, &body](unsigned id, reader_guard& guard) {
            worker_context ctx(id, guard, *watch);
            try {
              body(ctx);
            } catch (const abandoned_worker&) {
              throw;
            } catch (const halted_call&) {
              return; // the halt's cause is the run's error, not this worker's
            } catch (...) {
              watch->set_halt(); // one worker's failure stops the others
              throw;
            }
          },
          watch->halt());
    } catch (const std::exception& e) {
      start_error = e.what();
    }
    done.store(true, std::memory_order_release);
  });
  watched_result res;
  while (!done.load(std::memory_order_acquire)) {
    if (!watch->halt().load()) {
      if (stop_requested()) {
        res.interrupted = true;
        watch->set_halt();
      } else if (stall_timeout_s > 0 && watch->idle_s() >= stall_timeout_s) {
        res.stalled = watch->oldest_call(stall_timeout_s, role);
        if (!res.stalled.empty())
          watch->set_halt();
      }
    }
    if (tick)
      tick();
    // 100 ms between checks, but the end is seen within 5 ms (a short scan is not held).
    for (int i = 0; i < 20 && !done.load(std::memory_order_acquire); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  runner.join();
  if (!start_error.empty())
    throw run_error(start_error);
  res.errors = ran.errors;
  for (unsigned a : ran.abandoned)
    res.abandoned.push_back(watch->call_of(a, role));
  return res;
}

} // namespace dlsize::io
