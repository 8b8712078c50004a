#pragma once
// The distributed sampler, in one of two modes (--shard-read):
// - shuffled records (records): every epoch a new permutation of all samples (from seed +
//   epoch), cut into global steps of accelerators × batch samples; accelerator a takes slice a
//   of each step. The tail that does not fill a whole step is dropped (PyTorch's
//   DistributedSampler with drop_last), so every accelerator runs the same number of steps and
//   none waits on a shorter shard. The model of a loader that reads records by index (DALI's
//   tfrecord2idx, map-style datasets).
// - streamed shards (stream): each epoch a new order of the shards, dealt to the accelerators
//   round-robin, each reading its shards' records in file order (shard_stream.hpp): tf.data's
//   interleave, WebDataset.
// Pure arithmetic over the permutations (computed on the fly, so memory does not grow with
// epochs): thread safe after construction.
#include <cstdint>
#include <memory>
#include <vector>

#include "config/read_modes.hpp"
#include "pipeline/shard_stream.hpp"

namespace dlsize::pipeline {

using config::shard_read;

// Where one sample of the run goes: the position of job k in the run's order.
struct sample_slot {
  std::uint64_t epoch = 0;
  std::uint64_t step = 0; // step within the run (epoch's first step + step in epoch)
  std::uint64_t accelerator = 0;
  std::uint64_t position = 0; // within the batch
};

class sampler {
public:
  // Shuffled records. Throws usage_error when one step needs more samples than the dataset has.
  sampler(std::uint64_t samples, std::uint64_t accelerators, std::uint64_t batch_size,
          std::uint64_t epochs, std::uint64_t seed);
  // Streamed shards: shard f holds records shard_first[f] .. shard_first[f + 1] − 1. Throws
  // usage_error when an accelerator would get no shard or less than one batch in an epoch.
  sampler(std::vector<std::uint64_t> shard_first, std::uint64_t accelerators,
          std::uint64_t batch_size, std::uint64_t epochs, std::uint64_t seed);

  bool streamed() const { return m_stream != nullptr; }
  // Streamed shards may run fewer steps in some epochs than in others: the fewest.
  std::uint64_t steps_per_epoch() const { return m_steps_per_epoch; }
  std::uint64_t total_steps() const { return m_total_steps; }
  // The samples an epoch leaves unread (streamed: the most of any epoch).
  std::uint64_t dropped_per_epoch() const { return m_dropped; }
  // Reads in the run: total_steps × accelerators × batch.
  std::uint64_t total_jobs() const { return total_steps() * m_global_batch; }
  std::uint64_t batch_size() const { return m_batch; }
  std::uint64_t accelerators() const { return m_accelerators; }
  std::uint64_t epoch_of(std::uint64_t step) const {
    return m_stream ? m_stream->epoch_of(step) : step / m_steps_per_epoch;
  }
  std::uint64_t first_step(std::uint64_t epoch) const {
    return m_stream ? m_stream->first_step(epoch) : epoch * m_steps_per_epoch;
  }
  // The epochs whose every step is among the first `steps` of the run.
  std::uint64_t epochs_done(std::uint64_t steps) const {
    return steps >= m_total_steps ? m_epochs : epoch_of(steps);
  }
  // Whether run step t is the last of its epoch (the accelerators meet after it).
  bool ends_epoch(std::uint64_t step) const { return first_step(epoch_of(step) + 1) == step + 1; }

  // Job k of the run, in the order loaders read: step by step, accelerator by accelerator.
  sample_slot slot(std::uint64_t k) const;
  // The first job of accelerator a's batch at run step s.
  std::uint64_t first_job(std::uint64_t step, std::uint64_t accelerator) const {
    return (step * m_accelerators + accelerator) * m_batch;
  }
  // A caller's own hold on the streamed epoch it reads (one per reader thread), so that a
  // sample costs no shared state once its epoch's deal is held. Unused for shuffled records.
  using epoch_hold = std::shared_ptr<const shard_epoch>;
  // The dataset sample (record index) that job k reads.
  std::uint32_t sample(std::uint64_t k, epoch_hold& hold) const;
  std::uint32_t sample(std::uint64_t k) const {
    epoch_hold hold;
    return sample(k, hold);
  }

private:
  void check_shape(std::uint64_t samples) const;

  std::uint64_t m_samples, m_accelerators, m_batch, m_epochs, m_global_batch = 0;
  std::uint64_t m_steps_per_epoch = 0, m_total_steps = 0, m_dropped = 0;
  std::uint64_t m_seed; // epoch orders are computed per call (epoch_order), not stored
  std::unique_ptr<const shard_stream> m_stream; // streamed shards; null: shuffled records
};

} // namespace dlsize::pipeline
