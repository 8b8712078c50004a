#pragma once
// The way a batch's bytes reach the GPU. Each slot has pinned host memory for a batch (one
// stride of bytes per sample), a device copy of it, and two events: copied (the host-to-device
// copy on the copy stream is done) and consumed (the step's preprocessing has read the device
// copy). The loader acquires a slot, stages samples into its pinned memory, and submits it:
// the copy waits on the device for the previous use of the slot to be consumed, so copies of
// later batches overlap the compute of earlier ones up to the number of slots.
#include <cuda_runtime.h>

#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <vector>

#include "accel/cuda/device_memory.hpp"

namespace dlsize::cuda {

class input_stage {
public:
  input_stage(std::uint32_t slots, std::uint32_t batch, std::uint64_t stride, cudaStream_t copy);
  ~input_stage();
  input_stage(const input_stage&) = delete;
  input_stage& operator=(const input_stage&) = delete;

  // Loader side (any thread). acquire waits until the slot's previous batch has been taken by a
  // step and its pinned memory has been copied out.
  void acquire(std::uint32_t slot);
  // Bytes [offset, offset + length) of a sample of sample_length bytes; what lies past the
  // stride is not kept.
  void stage(std::uint32_t slot, std::uint32_t index, std::uint64_t offset, const void* bytes,
             std::uint64_t length, std::uint64_t sample_length);
  void submit(std::uint32_t slot, std::uint32_t samples);
  // Random bytes made on the device, kept for every later step (no copies).
  void fill_synthetic(std::uint32_t slot, std::uint64_t seed, cudaStream_t compute);

  // Step side: makes compute wait for the slot's bytes; returns the device bytes and lengths.
  struct batch_view {
    const std::uint8_t* raw;
    const std::uint64_t* lengths;
    bool resident; // synthetic: the same batch every step
  };
  batch_view begin_step(std::uint32_t slot, cudaStream_t compute);
  // After the preprocessing is enqueued: the slot may be refilled once it has run.
  void end_step(std::uint32_t slot, cudaStream_t compute);

  std::uint64_t stride() const { return m_stride; }
  std::uint64_t pinned_bytes() const;

private:
  enum class state { free, acquired, submitted, resident };
  struct slot {
    pinned_buffer host, host_lengths;
    device_buffer raw, lengths;
    cudaEvent_t copied = nullptr, consumed = nullptr;
    state st = state::free;
  };
  slot& at(std::uint32_t s);
  void destroy_events() noexcept;
  std::uint32_t m_batch;
  std::uint64_t m_stride;
  cudaStream_t m_copy;
  std::vector<slot> m_slots;
  std::mutex m_mutex;
  std::condition_variable m_cv;
};

} // namespace dlsize::cuda
