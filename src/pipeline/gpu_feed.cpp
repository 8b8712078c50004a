#include "pipeline/gpu_feed.hpp"

#include <algorithm>

namespace dlsize::pipeline {

gpu_feed::gpu_feed(const std::vector<std::unique_ptr<accel::accelerator>>& accels, const sampler& s,
                   std::uint64_t first)
    : m_sampler(s), m_first(first) {
  for (const auto& acc : accels) {
    m_lanes.push_back(std::make_unique<lane>());
    m_lanes.back()->gpu = acc->input();
    m_active = m_active || m_lanes.back()->gpu != nullptr;
  }
}

void gpu_feed::acquire_through(std::uint64_t a, std::uint64_t t) {
  lane& l = *m_lanes[a];
  std::lock_guard lk(l.m);
  // Batches are acquired in order, whichever reader's piece comes first.
  while (l.acquired <= t)
    l.gpu->acquire(l.acquired++);
}

void gpu_feed::on_data(const io::read_job& job, std::uint64_t off, const std::byte* data,
                       std::size_t bytes) {
  const sample_slot sl = m_sampler.slot(job.tag);
  const std::uint64_t a = sl.accelerator - m_first;
  lane& l = *m_lanes[a];
  if (!l.gpu)
    return;
  // Only the sample's own bytes, not the alignment padding of direct reads.
  const std::uint64_t lo = std::max(off, job.offset);
  const std::uint64_t hi = std::min(off + bytes, job.offset + job.length);
  if (hi <= lo)
    return;
  acquire_through(a, sl.step);
  l.gpu->stage_piece(sl.step, static_cast<std::uint32_t>(sl.position), lo - job.offset,
                     data + (lo - off), static_cast<std::size_t>(hi - lo), job.length);
}

void gpu_feed::on_complete(std::uint64_t a, std::uint64_t t, std::uint64_t failed) {
  lane& l = *m_lanes[a];
  if (!l.gpu || failed)
    return;              // a failed batch is never stepped: the run halts
  acquire_through(a, t); // a batch of empty samples was never staged
  l.gpu->submit(t, l.gpu->batch_size());
}

} // namespace dlsize::pipeline
