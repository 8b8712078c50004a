#pragma once
// Watches a checkpoint's reads or writes from a thread of its own: a signal stops them, and so
// does a stall (no byte moved for --stall-timeout while a request has been in flight that long);
// the engine then abandons what the storage holds. Used by the restores of files and objects and
// by the uploads of objects.
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>

#include <fmt/format.h>

#include "core/clock.hpp"
#include "core/stop.hpp"

namespace dlsize::pipeline {

class phase_watch {
public:
  // progress: bytes moved so far; stuck(age): the oldest request in flight for at least age ns
  // ("" when none); what: "read" or "write", for the message.
  phase_watch(std::function<std::uint64_t()> progress,
              std::function<std::string(std::uint64_t)> stuck, const char* what,
              double stall_timeout_s, std::atomic<bool>& stop)
      : m_progress(std::move(progress)), m_stuck(std::move(stuck)), m_what(what),
        m_stall_ns(static_cast<std::uint64_t>(stall_timeout_s * 1e9)), m_stall_s(stall_timeout_s),
        m_stop(stop), m_thread([this] { watch(); }) {}
  ~phase_watch() { finish(); }
  phase_watch(const phase_watch&) = delete;
  phase_watch& operator=(const phase_watch&) = delete;
  // Ends the watch; returns the stall it saw ("" when none).
  std::string finish() {
    {
      std::lock_guard lk(m_mu);
      m_done = true;
    }
    m_cv.notify_all();
    if (m_thread.joinable())
      m_thread.join();
    return m_stalled;
  }

private:
  void watch() {
    std::uint64_t seen = 0, moved_at = now_ns();
    std::unique_lock lk(m_mu);
    while (!m_cv.wait_for(lk, std::chrono::milliseconds(100), [this] { return m_done; })) {
      if (stop_requested()) {
        m_stop.store(true);
        continue;
      }
      const std::uint64_t b = m_progress(), t = now_ns();
      if (b != seen) {
        seen = b;
        moved_at = t;
        continue;
      }
      if (!m_stall_ns || t - moved_at < m_stall_ns || !m_stalled.empty())
        continue;
      const std::string stuck = m_stuck(m_stall_ns);
      if (stuck.empty())
        continue;
      m_stalled =
          fmt::format("no {} finished for {:g} s (--stall-timeout); {}", m_what, m_stall_s, stuck);
      m_stop.store(true);
    }
  }

  std::function<std::uint64_t()> m_progress;
  std::function<std::string(std::uint64_t)> m_stuck;
  const char* m_what;
  std::uint64_t m_stall_ns;
  double m_stall_s;
  std::atomic<bool>& m_stop;
  std::mutex m_mu;
  std::condition_variable m_cv;
  bool m_done = false;
  std::string m_stalled;
  std::thread m_thread; // last: it starts once the rest is set
};

// Runs work(stop) under a phase_watch (progress, stuck, what and stall_timeout_s as the watch
// takes them) and returns its result; `stalled` gets the stall the watch saw ("" when none).
template <class Work>
auto run_watched_phase(std::function<std::uint64_t()> progress,
                       std::function<std::string(std::uint64_t)> stuck, const char* what,
                       double stall_timeout_s, std::string& stalled, Work&& work) {
  std::atomic<bool> stop{false};
  phase_watch watch(std::move(progress), std::move(stuck), what, stall_timeout_s, stop);
  auto result = work(stop);
  stalled = watch.finish();
  return result;
}

} // namespace dlsize::pipeline
