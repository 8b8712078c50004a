#include "io/reader_pool.hpp"

#include <chrono>
#include <system_error>
#include <thread>

#include <fmt/format.h>

#include "core/clock.hpp"
#include "core/error.hpp"

namespace dlsize::io {

pool_result reader_pool::run(unsigned readers, const body_fn& body, const std::atomic<bool>& stop) {
  m_shared = std::make_shared<shared>(readers);
  std::vector<std::thread> threads;
  threads.reserve(readers);
  std::string start_error;
  for (unsigned i = 0; i < readers; ++i) {
    try {
      // The thread holds the shared block, so that an abandoned one that wakes finds its guard.
      threads.emplace_back([s = m_shared, body, i] {
        reader_guard& g = s->guards[i];
        try {
          body(i, g);
        } catch (const std::exception& e) {
          if (g.m_phase.load() != reader_guard::kAbandoned) {
            s->errors[i] = e.what();
            s->failed.store(true, std::memory_order_release);
          }
        }
        int running = reader_guard::kRunning;
        g.m_phase.compare_exchange_strong(running, reader_guard::kDone);
      });
    } catch (const std::system_error& e) {
      start_error = fmt::format("could not start reader thread {} of {}: {}. The limit on "
                                "processes and threads (ulimit -u, RLIMIT_NPROC) or memory "
                                "ran out; valid: fewer threads (--readers of bench, --threads of "
                                "datagen, verify and index), or a higher limit",
                                i + 1, readers, e.what());
      m_shared->failed.store(true);
      for (unsigned k = i; k < readers; ++k)
        m_shared->guards[k].m_phase.store(reader_guard::kDone);
      break;
    }
  }
  pool_result res;
  std::vector<bool> left(threads.size(), false);
  std::uint64_t stop_seen = 0;
  for (;;) {
    bool waiting = false;
    for (std::size_t i = 0; i < threads.size(); ++i)
      if (!left[i] && m_shared->guards[i].m_phase.load() != reader_guard::kDone)
        waiting = true;
    if (!waiting)
      break;
    const std::uint64_t t = now_ns();
    if (!stop_seen && (stop.load(std::memory_order_acquire) || m_shared->failed.load()))
      stop_seen = t;
    if (stop_seen && static_cast<double>(t - stop_seen) * 1e-9 >= m_grace_s) {
      for (std::size_t i = 0; i < threads.size(); ++i) {
        int blocked = reader_guard::kBlocked;
        if (!left[i] && m_shared->guards[i].m_phase.compare_exchange_strong(
                            blocked, reader_guard::kAbandoned)) {
          left[i] = true;
          threads[i].detach();
          res.abandoned.push_back(static_cast<unsigned>(i));
        }
      }
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  for (std::size_t i = 0; i < threads.size(); ++i)
    if (!left[i])
      threads[i].join();
  if (!start_error.empty())
    throw run_error(start_error);
  res.errors = m_shared->errors;
  return res;
}

} // namespace dlsize::io
