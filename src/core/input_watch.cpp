#include "core/input_watch.hpp"

#include <pthread.h>
#include <signal.h>

#include <chrono>
#include <condition_variable>
#include <exception>
#include <memory>
#include <mutex>
#include <system_error>
#include <thread>

#include <fmt/format.h>

#include "core/clock.hpp"

namespace dlsize::core {
namespace {

std::mutex g_mu;
input_limits g_limits;
std::uint64_t g_deadline_ns = 0; // 0: no time limit

// What the helper thread shares with the caller; it outlives the caller's wait when the helper
// is abandoned, so the helper touches nothing else.
struct read_state {
  std::mutex mu;
  std::condition_variable cv;
  bool done = false;
  std::exception_ptr error;
  input_progress progress{0};
};

// The progress counter of the watched call this thread runs, for note_input_progress; the
// helper's own state holds it alive.
thread_local input_progress* t_progress = nullptr;

// Starts the helper with SIGINT and SIGTERM blocked (the mask is inherited), so that the signal
// goes to a thread that returns to user space and sets the stop flag; the caller's mask is
// restored.
std::thread start_helper(const std::shared_ptr<read_state>& s, const std::function<void()>& body) {
  sigset_t block, old;
  sigemptyset(&block);
  sigaddset(&block, SIGINT);
  sigaddset(&block, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &block, &old);
  try {
    std::thread t([s, body] {
      std::exception_ptr error;
      t_progress = &s->progress;
      try {
        body();
      } catch (...) {
        error = std::current_exception();
      }
      t_progress = nullptr;
      std::lock_guard lk(s->mu);
      s->error = error;
      s->done = true;
      s->cv.notify_all();
    });
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    return t;
  } catch (...) {
    pthread_sigmask(SIG_SETMASK, &old, nullptr);
    throw;
  }
}

[[noreturn]] void stopped(const std::filesystem::path& path, const watched_action& action,
                          const std::string& why, stop_cause cause) {
  throw input_stopped(fmt::format("{} '{}': {}; stuck in the kernel: {}", action.doing,
                                  path.string(), why, action.call),
                      cause);
}

// A read that began after a stop (a stopped run reading back what it needs for its report) is
// given as long as the reader pool gives a blocked reader before it abandons it.
constexpr std::uint64_t kGraceAfterStopNs = 1'000'000'000;

// The stop that ends the wait, if one has come: throws input_stopped.
void check_stops(const std::filesystem::path& path, const watched_action& action,
                 const read_state& s, const input_limits& lim, std::uint64_t deadline_ns,
                 std::uint64_t stopped_before_ns) {
  const std::uint64_t t = now_ns();
  if (stop_requested() && (!stopped_before_ns || t - stopped_before_ns >= kGraceAfterStopNs))
    stopped(path, action,
            stop_signal() ? fmt::format("interrupted by signal {}", stop_signal())
                          : std::string("stopped"),
            stop_cause::signal);
  const auto stall_ns = static_cast<std::uint64_t>(lim.stall_timeout_s * 1e9);
  const std::uint64_t since = s.progress.load(std::memory_order_acquire);
  if (stall_ns && t > since && t - since >= stall_ns)
    stopped(path, action,
            fmt::format("no progress for {:g} s (--stall-timeout)", lim.stall_timeout_s),
            stop_cause::stall);
  if (deadline_ns && t >= deadline_ns)
    stopped(path, action,
            fmt::format("--time-limit {:g} s reached before it was read", lim.time_limit_s),
            stop_cause::time_limit);
}

} // namespace

void watch_inputs(const input_limits& limits) {
  std::lock_guard lk(g_mu);
  g_limits = limits;
  const std::uint64_t start = process_start_ns() ? process_start_ns() : now_ns();
  g_deadline_ns =
      limits.time_limit_s > 0 ? start + static_cast<std::uint64_t>(limits.time_limit_s * 1e9) : 0;
}

input_limits watched_limits() {
  std::lock_guard lk(g_mu);
  return g_limits;
}

void watched_run(const std::filesystem::path& path, const watched_action& action,
                 const std::function<void()>& body) {
  input_limits lim;
  std::uint64_t deadline_ns = 0;
  {
    std::lock_guard lk(g_mu);
    lim = g_limits;
    deadline_ns = g_deadline_ns;
  }
  auto s = std::make_shared<read_state>();
  const std::uint64_t t0 = now_ns();
  s->progress.store(t0);
  const std::uint64_t stopped_before_ns = stop_requested() ? t0 : 0;
  try {
    start_helper(s, body).detach();
  } catch (const std::system_error&) {
    body(); // no thread to spare: unwatched, as before
    return;
  }
  std::unique_lock lk(s->mu);
  while (!s->done) {
    s->cv.wait_for(lk, std::chrono::milliseconds(50));
    if (!s->done)
      check_stops(path, action, *s, lim, deadline_ns, stopped_before_ns);
  }
  if (s->error)
    std::rethrow_exception(s->error);
}

void note_input_progress() {
  if (t_progress)
    t_progress->store(now_ns(), std::memory_order_release);
}

std::string watched_read(const std::filesystem::path& path,
                         const std::function<std::string(input_progress&)>& read) {
  return watched_call(path, watched_action{}, [read] {
    input_progress* p = t_progress;
    input_progress unwatched{0}; // the body runs on the caller's thread where none is started
    return read(p ? *p : unwatched);
  });
}

std::optional<struct stat> watched_stat(const std::filesystem::path& path, int* err) {
  const auto got = watched_call(path, kLookup, [path] {
    struct stat st {};
    const int rc = ::stat(path.c_str(), &st);
    return std::make_pair(rc == 0 ? std::optional<struct stat>(st) : std::nullopt, errno);
  });
  if (err)
    *err = got.first ? 0 : got.second;
  return got.first;
}

} // namespace dlsize::core
