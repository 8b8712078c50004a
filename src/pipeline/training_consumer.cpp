#include "pipeline/training_consumer.hpp"

#include <algorithm>

#include "core/clock.hpp"
#include "core/rng.hpp"

namespace dlsize::pipeline {

training_consumer::training_consumer(const sampler& s, batch_board& board, gpu_feed& feed,
                                     std::uint64_t first, std::uint64_t count, unsigned readers,
                                     std::uint64_t preprocess_ns, std::size_t chunk)
    : m_sampler(s), m_board(board), m_feed(feed), m_first(first), m_tally(readers),
      m_digest(std::make_unique<std::atomic<std::uint64_t>[]>(count)) {
  for (auto& t : m_tally)
    t.pre = std::make_unique<preprocessor>(preprocess_ns, chunk);
}

void training_consumer::on_data(unsigned reader, const io::read_job& job, std::uint64_t off,
                                const std::byte* data, std::size_t bytes) {
  m_tally[reader].flowed.fetch_add(bytes, std::memory_order_relaxed);
  if (m_feed.active())
    m_feed.on_data(job, off, data, bytes);
  auto& pre = *m_tally[reader].pre;
  if (!pre.enabled())
    return;
  // Only the sample's own bytes, not the alignment padding of direct reads.
  const std::uint64_t lo = std::max(off, job.offset);
  const std::uint64_t hi = std::min(off + bytes, job.offset + job.length);
  if (hi > lo)
    pre.feed(data + (lo - off), static_cast<std::size_t>(hi - lo));
}

void training_consumer::on_done(unsigned reader, const io::read_job& job, std::uint64_t bytes,
                                std::uint64_t latency_ns, io::job_outcome outcome,
                                const std::string& error) {
  auto& t = m_tally[reader];
  const bool failed = outcome == io::job_outcome::failed;
  if (failed && t.failed++ == 0)
    t.first_error = error;
  const sample_slot sl = m_sampler.slot(job.tag);
  const std::uint64_t a = sl.accelerator - m_first;
  if (outcome == io::job_outcome::done) {
    t.sample_latency.record(latency_ns);
    t.pre->finish_sample();
    // What this accelerator read at this step, independent of the order of completions.
    m_digest[a].fetch_add(splitmix64(splitmix64(sl.step) ^ (std::uint64_t{job.file} << 40) ^
                                     job.offset ^ (job.length << 20)),
                          std::memory_order_relaxed);
  }
  m_board.sample_done(a, sl.step, bytes, failed, now_ns());
}

std::uint64_t training_consumer::bytes() const {
  std::uint64_t b = 0;
  for (auto& t : m_tally)
    b += t.flowed.load(std::memory_order_relaxed);
  return b;
}

} // namespace dlsize::pipeline
