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

#include <nlohmann/json.hpp>

#include "accel/cuda_abi.h"
#include "accel/cuda_accelerator.hpp"
#include "io/engine.hpp"
#include "pipeline/sampler.hpp"

namespace dlsize::pipeline {

class gpu_feed {
public:
  // gpus: per local accelerator of the rank (its global ids first ...), null for emulated ones.
  gpu_feed(std::vector<accel::cuda_accelerator*> gpus, const sampler& s, std::uint64_t first);
  bool active() const { return m_active; }
  // A piece of a job's bytes (file offset off; alignment padding included) from a reader.
  void on_data(const io::read_job& job, std::uint64_t off, const std::byte* data,
               std::size_t bytes);
  // The board saw batch t of local accelerator a complete: submit it, unless samples failed.
  void on_complete(std::uint64_t a, std::uint64_t t, std::uint64_t failed);

private:
  void acquire_through(std::uint64_t a, std::uint64_t t);
  struct alignas(64) lane {
    accel::cuda_accelerator* gpu = nullptr;
    std::mutex m;
    std::uint64_t acquired = 0; // batches acquired so far (0 .. acquired − 1)
  };
  const sampler& m_sampler;
  std::uint64_t m_first;
  std::vector<std::unique_ptr<lane>> m_lanes;
  bool m_active = false;
};

// A GPU's step results over a run: loss first and last, mean busy and phase times, steps
// skipped by the fp16 loss scaling.
struct gpu_tally {
  std::uint64_t steps = 0, skipped = 0;
  double loss_first = 0, loss_last = 0;
  double busy_ms = 0, preprocess_ms = 0, forward_ms = 0, backward_ms = 0, optimizer_ms = 0;
  void add(const dlsize_cuda_step_result& r);
  nlohmann::json to_json() const;
};

} // namespace dlsize::pipeline
