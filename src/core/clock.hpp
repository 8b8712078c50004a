#pragma once
// Monotonic time in nanoseconds and seconds; the one clock every measurement uses.
#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <ctime>

namespace dlsize {

inline std::uint64_t now_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000ull +
         static_cast<std::uint64_t>(ts.tv_nsec);
}

inline double now_s() {
  return static_cast<double>(now_ns()) * 1e-9;
}

// Sleeps until the monotonic clock reaches t (an absolute deadline, so that repeated waits do
// not accumulate the oversleep of each).
inline void sleep_until_ns(std::uint64_t t) {
  timespec ts{static_cast<time_t>(t / 1'000'000'000ull), static_cast<long>(t % 1'000'000'000ull)};
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
  }
}

// Sleeps until t like sleep_until_ns, in slices of at most 20 ms, and gives up early when
// halted() says so (a stop must not wait out a long rate-limit sleep). False: halted.
template <class Halted> bool sleep_until_ns_or(std::uint64_t t, Halted halted) {
  for (;;) {
    if (halted())
      return false;
    const std::uint64_t now = now_ns();
    if (now >= t)
      return true;
    sleep_until_ns(std::min<std::uint64_t>(t, now + 20'000'000ull));
  }
}

// When main() began: start-up figures count from it (0 until mark_process_start() is called).
inline std::uint64_t g_process_start_ns = 0;
inline void mark_process_start() {
  g_process_start_ns = now_ns();
}
inline std::uint64_t process_start_ns() {
  return g_process_start_ns;
}

// CPU time this thread has used.
inline std::uint64_t thread_cpu_ns() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000ull +
         static_cast<std::uint64_t>(ts.tv_nsec);
}

} // namespace dlsize
