#include "core/stop.hpp"

#include <csignal>
#include <unistd.h>

#include <atomic>

namespace dlsize {
namespace {

std::atomic<int> g_signal{0};
std::atomic<bool> g_stop{false};

extern "C" void on_signal(int sig) {
  if (g_stop.exchange(true))
    _exit(128 + sig);
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
