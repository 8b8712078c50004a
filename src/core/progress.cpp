#include "core/progress.hpp"

#include <unistd.h>

#include <cstdio>

#include "core/clock.hpp"

namespace dlsize {

progress::progress(bool enabled) : m_enabled(enabled && isatty(STDERR_FILENO) == 1) {}

progress::~progress() {
  finish();
}

void progress::update(const std::string& line, bool force) {
  if (!m_enabled)
    return;
  const auto t = now_ns();
  if (!force && t - m_last_ns < 250'000'000ull)
    return;
  m_last_ns = t;
  std::fprintf(stderr, "\r\033[K%s", line.c_str());
  std::fflush(stderr);
  m_drawn = true;
}

void progress::finish() {
  if (m_enabled && m_drawn) {
    std::fputc('\n', stderr);
    m_drawn = false;
  }
}

} // namespace dlsize
