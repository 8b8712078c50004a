#include "pipeline/batch_board.hpp"

#include <chrono>

namespace dlsize::pipeline {

batch_board::batch_board(std::uint64_t accelerators, std::uint64_t depth, std::uint64_t batch_size)
    : m_depth(depth), m_batch(batch_size), m_accel(accelerators) {
  for (auto& a : m_accel) {
    a.slots = std::make_unique<slot[]>(depth);
    for (std::uint64_t i = 0; i < depth; ++i)
      a.slots[i].remaining.store(batch_size);
  }
}

void batch_board::sample_done(std::uint64_t a, std::uint64_t t, std::uint64_t bytes, bool failed,
                              std::uint64_t now) {
  slot& s = m_accel[a].slots[t % m_depth];
  s.bytes.fetch_add(bytes, std::memory_order_relaxed);
  if (failed)
    s.failed.fetch_add(1, std::memory_order_relaxed);
  // acq_rel: the last sample sees every other sample's bytes and failures.
  if (s.remaining.fetch_sub(1, std::memory_order_acq_rel) != 1)
    return;
  if (m_on_complete)
    m_on_complete(a, t, s.failed.load(std::memory_order_relaxed));
  accel& ac = m_accel[a];
  {
    std::lock_guard lk(ac.m);
    s.ready_step = t;
    s.ready_ns = now;
  }
  ac.cv.notify_one();
}

batch_board::batch batch_board::wait(std::uint64_t a, std::uint64_t t) {
  accel& ac = m_accel[a];
  slot& s = ac.slots[t % m_depth];
  std::unique_lock lk(ac.m);
  while (s.ready_step != t) {
    if (m_closed.load(std::memory_order_acquire))
      return {};
    ac.cv.wait_for(lk, std::chrono::milliseconds(100));
  }
  return {true, s.ready_ns, s.bytes.load(std::memory_order_relaxed),
          s.failed.load(std::memory_order_relaxed)};
}

void batch_board::take(std::uint64_t a, std::uint64_t t) {
  accel& ac = m_accel[a];
  slot& s = ac.slots[t % m_depth];
  s.bytes.store(0, std::memory_order_relaxed);
  s.failed.store(0, std::memory_order_relaxed);
  s.remaining.store(m_batch, std::memory_order_relaxed);
  // release: a reader that sees the new window also sees the reset slot.
  ac.taken.store(t + 1, std::memory_order_release);
}

void batch_board::close() {
  m_closed.store(true, std::memory_order_release);
  for (auto& ac : m_accel) {
    { std::lock_guard lk(ac.m); }
    ac.cv.notify_all();
  }
}

} // namespace dlsize::pipeline
