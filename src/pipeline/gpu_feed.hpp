#pragma once
// How the bytes the readers deliver reach a real GPU (docs/gpu.md). As each piece of a sample
// completes, it is copied into the pinned memory of its batch's slot (the batch's slot is
// acquired first, in batch order); when the board sees a batch complete, the batch is submitted:
// its copy to the device starts on the copy stream while earlier batches train.
//
// A GPU has prefetch + 1 slots and the board lets readers load `prefetch` batches ahead of the
// one taken, so the slot of a batch to load was always freed by a step that already returned:
// acquiring never waits on a step that may not come (a halted run cannot hang here).
#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

#include "accel/accelerator.hpp"
#include "io/engine.hpp"
#include "pipeline/sampler.hpp"

namespace dlsize::pipeline {

class gpu_feed {
public:
  // accels: the rank's (its global ids first ...); those without a batch input (emulated) get
  // no bytes.
  gpu_feed(const std::vector<std::unique_ptr<accel::accelerator>>& accels, const sampler& s,
           std::uint64_t first);
  bool active() const { return m_active; }
  // A piece of a job's bytes (file offset off; alignment padding included) from a reader.
  void on_data(const io::read_job& job, std::uint64_t off, const std::byte* data,
               std::size_t bytes);
  // The board saw batch t of local accelerator a complete: submit it, unless samples failed.
  void on_complete(std::uint64_t a, std::uint64_t t, std::uint64_t failed);

private:
  void acquire_through(std::uint64_t a, std::uint64_t t);
  struct alignas(64) lane {
    accel::batch_input* gpu = nullptr;
    std::mutex m;
    std::uint64_t acquired = 0; // batches acquired so far (0 .. acquired − 1)
  };
  const sampler& m_sampler;
  std::uint64_t m_first;
  std::vector<std::unique_ptr<lane>> m_lanes;
  bool m_active = false;
};

} // namespace dlsize::pipeline
