#pragma once
// The distributed sampler: every epoch a new permutation of all samples (from seed + epoch),
// cut into global steps of accelerators × batch samples; accelerator a takes slice a of each
// step. The tail that does not fill a whole step is dropped (PyTorch's DistributedSampler with
// drop_last), so every accelerator runs the same number of steps and none waits on a shorter
// shard. Pure arithmetic over the permutations (computed on the fly, so memory does not grow
// with epochs): thread safe after construction.
#include <cstdint>

namespace dlsize::pipeline {

// Where one sample of the run goes: the position of job k in the run's order.
struct sample_slot {
  std::uint64_t epoch = 0;
  std::uint64_t step = 0; // step within the run (epoch × steps_per_epoch + step in epoch)
  std::uint64_t accelerator = 0;
  std::uint64_t position = 0; // within the batch
};

class sampler {
public:
  // Throws usage_error when one step needs more samples than the dataset has.
  sampler(std::uint64_t samples, std::uint64_t accelerators, std::uint64_t batch_size,
          std::uint64_t epochs, std::uint64_t seed);

  std::uint64_t steps_per_epoch() const { return m_steps_per_epoch; }
  std::uint64_t total_steps() const { return m_steps_per_epoch * m_epochs; }
  std::uint64_t dropped_per_epoch() const { return m_samples - m_steps_per_epoch * m_global_batch; }
  // Reads in the run: total_steps × accelerators × batch.
  std::uint64_t total_jobs() const { return total_steps() * m_global_batch; }
  std::uint64_t batch_size() const { return m_batch; }
  std::uint64_t accelerators() const { return m_accelerators; }

  // Job k of the run, in the order loaders read: step by step, accelerator by accelerator.
  sample_slot slot(std::uint64_t k) const;
  // The first job of accelerator a's batch at run step s.
  std::uint64_t first_job(std::uint64_t step, std::uint64_t accelerator) const {
    return (step * m_accelerators + accelerator) * m_batch;
  }
  // The dataset sample (record index) that job k reads.
  std::uint32_t sample(std::uint64_t k) const;

private:
  std::uint64_t m_samples, m_accelerators, m_batch, m_epochs, m_global_batch;
  std::uint64_t m_steps_per_epoch = 0;
  std::uint64_t m_seed; // epoch orders are computed per call (epoch_order), not stored
};

} // namespace dlsize::pipeline
