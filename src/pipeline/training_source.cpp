#include "pipeline/training_source.hpp"

#include <chrono>

#include "pipeline/run_report.hpp"

namespace dlsize::pipeline {

training_source::training_source(const dataset::dataset_layout& layout, const sampler& s,
                                 const batch_board& board, std::uint64_t first, std::uint64_t count,
                                 unsigned readers)
    : m_layout(layout), m_sampler(s), m_board(board), m_first(first), m_accels(count),
      m_batch(s.batch_size()), m_per_accel(s.total_steps() * s.batch_size()),
      m_per_record(layout.params().layout == config::file_layout::shards),
      m_cursor(std::make_unique<std::atomic<std::uint64_t>[]>(count)),
      m_holds(std::make_unique<reader_hold[]>(readers)) {}

training_source::state training_source::pick(std::uint64_t& accelerator) const {
  if (m_closed.load(std::memory_order_relaxed))
    return state::end;
  // A batch begun is finished first: its window was checked at its first sample.
  const std::uint64_t h = m_hint.load(std::memory_order_relaxed);
  const std::uint64_t hc = m_cursor[h].load(std::memory_order_relaxed);
  if (hc < m_per_accel && hc % m_batch != 0) {
    accelerator = h;
    return state::job;
  }
  bool any_left = false, found = false;
  std::uint64_t best_step = UINT64_MAX;
  for (std::uint64_t i = 1; i <= m_accels; ++i) {
    const std::uint64_t a = (h + i) % m_accels;
    const std::uint64_t c = m_cursor[a].load(std::memory_order_relaxed);
    if (c >= m_per_accel)
      continue;
    any_left = true;
    if (c % m_batch != 0) { // another reader's batch in progress
      accelerator = a;
      return state::job;
    }
    const std::uint64_t t = c / m_batch;
    if (t < best_step && m_board.may_load(a, t)) {
      best_step = t;
      accelerator = a;
      found = true;
    }
  }
  if (found)
    return state::job;
  return any_left ? state::later : state::end;
}

io::pull_result training_source::pull(unsigned reader, io::read_job& job) {
  for (;;) {
    std::uint64_t a = 0;
    const state s = pick(a);
    if (s == state::end)
      return io::pull_result::end;
    if (s == state::later)
      return io::pull_result::later;
    std::uint64_t c = m_cursor[a].load(std::memory_order_relaxed);
    if (c >= m_per_accel)
      continue;
    // The first sample of a batch needs its window; later ones ride on that check.
    if (c % m_batch == 0 && !m_board.may_load(a, c / m_batch))
      continue;
    if (!m_cursor[a].compare_exchange_weak(c, c + 1, std::memory_order_relaxed))
      continue;
    m_hint.store(a, std::memory_order_relaxed);
    const std::uint64_t k = m_sampler.first_job(c / m_batch, m_first + a) + c % m_batch;
    job = unit_job(m_layout, m_per_record, m_sampler.sample(k, m_holds[reader].hold), k);
    return io::pull_result::job;
  }
}

void training_source::wait(unsigned, std::uint64_t timeout_ns) {
  std::unique_lock lk(m_m);
  m_cv.wait_for(lk, std::chrono::nanoseconds(timeout_ns), [&] {
    std::uint64_t a = 0;
    return pick(a) != state::later;
  });
}

void training_source::notify() {
  { std::lock_guard lk(m_m); }
  m_cv.notify_all();
}

void training_source::close() {
  m_closed.store(true);
  notify();
}

} // namespace dlsize::pipeline
