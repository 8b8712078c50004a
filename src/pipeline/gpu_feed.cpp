#include "pipeline/gpu_feed.hpp"

#include <algorithm>
#include <cmath>

namespace dlsize::pipeline {

gpu_feed::gpu_feed(std::vector<accel::cuda_accelerator*> gpus, const sampler& s,
                   std::uint64_t first)
    : m_sampler(s), m_first(first) {
  for (auto* g : gpus) {
    m_lanes.push_back(std::make_unique<lane>());
    m_lanes.back()->gpu = g;
    m_active = m_active || g != nullptr;
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

void gpu_tally::add(const dlsize_cuda_step_result& r) {
  if (steps == 0)
    loss_first = r.loss;
  loss_last = r.loss;
  ++steps;
  skipped += r.skipped ? 1 : 0;
  busy_ms += r.busy_ms;
  preprocess_ms += r.preprocess_ms;
  forward_ms += r.forward_ms;
  backward_ms += r.backward_ms;
  optimizer_ms += r.optimizer_ms;
}

nlohmann::json gpu_tally::to_json() const {
  const double n = steps ? static_cast<double>(steps) : 1.0;
  auto finite = [](double v) {
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
  };
  return {{"steps", steps},
          {"skipped_steps", skipped},
          {"loss_first", finite(loss_first)},
          {"loss_last", finite(loss_last)},
          {"busy_ms_mean", busy_ms / n},
          {"preprocess_ms_mean", preprocess_ms / n},
          {"forward_ms_mean", forward_ms / n},
          {"backward_ms_mean", backward_ms / n},
          {"optimizer_ms_mean", optimizer_ms / n}};
}

} // namespace dlsize::pipeline
