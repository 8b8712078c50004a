#include "accel/cuda/input_stage.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <utility>

#include "accel/cuda/check.hpp"
#include "accel/cuda/kernels.hpp"

namespace dlsize::cuda {

input_stage::input_stage(std::uint32_t slots, std::uint32_t batch, std::uint64_t stride,
                         cudaStream_t copy)
    : m_batch(batch), m_stride(stride), m_copy(copy), m_slots(slots) {
  // A constructor that throws (pinned memory running out at slot i) runs no destructor: the
  // events made so far are destroyed here; the buffers free themselves.
  try {
    for (std::uint32_t i = 0; i < slots; ++i) {
      slot& s = m_slots[i];
      const std::string what = "input slot " + std::to_string(i);
      s.host = pinned_buffer(static_cast<std::size_t>(batch) * stride, what);
      s.host_lengths = pinned_buffer(batch * sizeof(std::uint64_t), what);
      s.raw = device_buffer(static_cast<std::size_t>(batch) * stride, what);
      s.lengths = device_buffer(batch * sizeof(std::uint64_t), what);
      DLSIZE_CUDA_CHECK(cudaEventCreateWithFlags(&s.copied, cudaEventDisableTiming));
      DLSIZE_CUDA_CHECK(cudaEventCreateWithFlags(&s.consumed, cudaEventDisableTiming));
    }
  } catch (...) {
    destroy_events();
    throw;
  }
}

input_stage::~input_stage() {
  destroy_events();
}

void input_stage::destroy_events() noexcept {
  for (auto& s : m_slots) {
    if (s.copied)
      DLSIZE_CUDA_WARN(cudaEventDestroy(std::exchange(s.copied, nullptr)));
    if (s.consumed)
      DLSIZE_CUDA_WARN(cudaEventDestroy(std::exchange(s.consumed, nullptr)));
  }
}

input_stage::slot& input_stage::at(std::uint32_t s) {
  if (s >= m_slots.size())
    throw_bad("slot " + std::to_string(s) + " out of range: the trainer has " +
              std::to_string(m_slots.size()));
  return m_slots[s];
}

std::uint64_t input_stage::pinned_bytes() const {
  std::uint64_t b = 0;
  for (const auto& s : m_slots)
    b += s.host.bytes() + s.host_lengths.bytes();
  return b;
}

void input_stage::acquire(std::uint32_t s) {
  slot& sl = at(s);
  {
    std::unique_lock lk(m_mutex);
    if (sl.st == state::resident)
      throw_bad("slot " + std::to_string(s) + " holds synthetic data");
    // Batches go through the slots in order: this waits for the step that uses the slot now.
    m_cv.wait(lk, [&] { return sl.st == state::free; });
    sl.st = state::acquired;
  }
  // The previous copy out of the pinned memory must be done before it is overwritten.
  DLSIZE_CUDA_CHECK(cudaEventSynchronize(sl.copied));
  std::memset(sl.host_lengths.get(), 0, sl.host_lengths.bytes());
}

void input_stage::stage(std::uint32_t s, std::uint32_t index, std::uint64_t offset,
                        const void* bytes, std::uint64_t length, std::uint64_t sample_length) {
  slot& sl = at(s);
  {
    std::lock_guard lk(m_mutex);
    if (sl.st != state::acquired)
      throw_bad("stage_sample on slot " + std::to_string(s) + " before acquire_slot");
  }
  if (index >= m_batch)
    throw_bad("sample index " + std::to_string(index) + " of a batch of " +
              std::to_string(m_batch));
  if (bytes == nullptr || length == 0 || sample_length == 0 || offset + length > sample_length)
    throw_bad("sample " + std::to_string(index) + ": a piece of " + std::to_string(length) +
              " bytes at " + std::to_string(offset) + " of a sample of " +
              std::to_string(sample_length));
  if (offset < m_stride) {
    const std::uint64_t n = std::min(length, m_stride - offset);
    std::memcpy(sl.host.as<std::uint8_t>() + static_cast<std::size_t>(index) * m_stride + offset,
                bytes, n);
  }
  sl.host_lengths.as<std::uint64_t>()[index] = std::min(sample_length, m_stride);
}

void input_stage::submit(std::uint32_t s, std::uint32_t samples) {
  slot& sl = at(s);
  {
    std::lock_guard lk(m_mutex);
    if (sl.st != state::acquired)
      throw_bad("submit_slot on slot " + std::to_string(s) + " before acquire_slot");
  }
  if (samples != m_batch)
    throw_bad("submit_slot with " + std::to_string(samples) + " samples, the batch is " +
              std::to_string(m_batch));
  std::uint64_t widest = 0;
  const auto* len = sl.host_lengths.as<std::uint64_t>();
  for (std::uint32_t i = 0; i < samples; ++i) {
    if (len[i] == 0)
      throw_bad("sample " + std::to_string(i) + " was not staged");
    widest = std::max(widest, len[i]);
  }
  // The device copy may still be read by the step that used this slot before.
  DLSIZE_CUDA_CHECK(cudaStreamWaitEvent(m_copy, sl.consumed, 0));
  DLSIZE_CUDA_CHECK(cudaMemcpy2DAsync(sl.raw.get(), m_stride, sl.host.get(), m_stride, widest,
                                      samples, cudaMemcpyHostToDevice, m_copy));
  DLSIZE_CUDA_CHECK(cudaMemcpyAsync(sl.lengths.get(), sl.host_lengths.get(),
                                    samples * sizeof(std::uint64_t), cudaMemcpyHostToDevice,
                                    m_copy));
  DLSIZE_CUDA_CHECK(cudaEventRecord(sl.copied, m_copy));
  {
    std::lock_guard lk(m_mutex);
    sl.st = state::submitted;
  }
  m_cv.notify_all();
}

void input_stage::fill_synthetic(std::uint32_t s, std::uint64_t seed, cudaStream_t compute) {
  slot& sl = at(s);
  {
    std::lock_guard lk(m_mutex);
    if (sl.st == state::acquired || sl.st == state::submitted)
      throw_bad("fill_synthetic on slot " + std::to_string(s) + ", which holds a loading batch");
    sl.st = state::resident;
  }
  fill_random_bytes(sl.raw.as<std::uint8_t>(), sl.raw.bytes(), seed, compute);
  fill_u64(sl.lengths.as<std::uint64_t>(), m_batch, m_stride, compute);
  DLSIZE_CUDA_CHECK(cudaEventRecord(sl.copied, compute));
}

input_stage::batch_view input_stage::begin_step(std::uint32_t s, cudaStream_t compute) {
  slot& sl = at(s);
  {
    std::lock_guard lk(m_mutex);
    if (sl.st != state::submitted && sl.st != state::resident)
      throw_bad("step on slot " + std::to_string(s) + ", which holds no batch (submit_slot first)");
  }
  DLSIZE_CUDA_CHECK(cudaStreamWaitEvent(compute, sl.copied, 0));
  return {sl.raw.as<std::uint8_t>(), sl.lengths.as<std::uint64_t>(), sl.st == state::resident};
}

void input_stage::end_step(std::uint32_t s, cudaStream_t compute) {
  slot& sl = at(s);
  DLSIZE_CUDA_CHECK(cudaEventRecord(sl.consumed, compute));
  {
    std::lock_guard lk(m_mutex);
    if (sl.st == state::submitted)
      sl.st = state::free;
  }
  m_cv.notify_all();
}

} // namespace dlsize::cuda
