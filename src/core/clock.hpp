#pragma once
// Monotonic time in nanoseconds and seconds; the one clock every measurement uses.
#include <cstdint>
#include <ctime>

namespace dlsize {

inline std::uint64_t now_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<std::uint64_t>(ts.tv_sec) * 1'000'000'000ull +
         static_cast<std::uint64_t>(ts.tv_nsec);
}

inline double now_s() { return static_cast<double>(now_ns()) * 1e-9; }

}  // namespace dlsize
