#include "core/stop.hpp"

#include <csignal>
#include <ctime>
#include <unistd.h>

#include <atomic>

namespace dlsize {
namespace {

std::atomic<int> g_signal{0};
std::atomic<bool> g_stop{false};
std::atomic<long long> g_first_ns{0}; // when the first signal came (CLOCK_MONOTONIC)

long long monotonic_ns() { // clock_gettime is async-signal-safe
  timespec t{};
  clock_gettime(CLOCK_MONOTONIC, &t);
  return static_cast<long long>(t.tv_sec) * 1'000'000'000LL + t.tv_nsec;
}

// The first SIGINT or SIGTERM asks for a stop (the run writes its incomplete report); a second
// one a second or more later, as a user's second Ctrl-C, ends the process at once. One that comes
// sooner is the same interrupt delivered twice: `timeout` and launchers send a signal both to the
// process and to its process group, and that copy must not cost the report.
extern "C" void on_signal(int sig) {
  const long long now = monotonic_ns();
  if (g_stop.exchange(true)) {
    if (now - g_first_ns.load() < 1'000'000'000LL)
      return;
    _exit(128 + sig);
  }
  g_first_ns.store(now);
  g_signal.store(sig);
}

} // namespace

void install_stop_handlers() {
  struct sigaction sa {};
  sa.sa_handler = on_signal;
  sigemptyset(&sa.sa_mask);
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
}

bool stop_requested() {
  return g_stop.load(std::memory_order_relaxed);
}
void request_stop() {
  g_stop.store(true);
}
int stop_signal() {
  return g_signal.load();
}

} // namespace dlsize
