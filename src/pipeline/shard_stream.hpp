#pragma once
// Streamed shards, tf.data's model (`Dataset.shard` per worker, then interleave over the shard
// files): every epoch the shard list is a new permutation (seed + epoch, epoch_order), shard i
// of it goes to accelerator i mod A, and each accelerator's batches take the records of its
// shards one shard after another, each in file order (sequential reads within a shard).
//
// Every accelerator runs the same number of steps in an epoch: the fewest whole batches any
// accelerator's shards hold that epoch (the rest is dropped, as drop_last), so with shards of
// unequal record counts the steps differ from epoch to epoch. Each epoch's deal (which shards,
// in which order, and the records before each) is a table of about 12 bytes per shard, built
// when first asked for; the last few are kept (thread safe), so memory does not grow with epochs.
#include <array>
#include <cstdint>
#include <memory>
#include <mutex>
#include <vector>

namespace dlsize::pipeline {

// One epoch's deal: accelerator a streams shard[start[a]] .. shard[start[a + 1] − 1] in this
// order; before[i] records of its stream come before shard[i].
struct shard_epoch {
  std::uint64_t epoch = 0;
  std::vector<std::uint32_t> shard;
  std::vector<std::uint64_t> before;
  std::vector<std::uint64_t> start;
};

class shard_stream {
public:
  // first_record[f] .. first_record[f + 1] − 1 are shard f's records (file order). Throws
  // usage_error, naming --shard-read, when an accelerator would get no shard, or its shards
  // hold less than one batch in some epoch.
  shard_stream(std::vector<std::uint64_t> first_record, std::uint64_t accelerators,
               std::uint64_t batch_size, std::uint64_t epochs, std::uint64_t seed);

  std::uint64_t first_step(std::uint64_t epoch) const {
    return m_epoch_first.empty() ? epoch * m_uniform_steps : m_epoch_first[epoch];
  }
  std::uint64_t total_steps() const { return first_step(m_epochs); }
  // The epoch of a run step (step < total_steps()).
  std::uint64_t epoch_of(std::uint64_t step) const;
  std::uint64_t fewest_steps() const { return m_fewest_steps; }
  // The most records an epoch leaves unread.
  std::uint64_t most_dropped() const { return m_most_dropped; }

  // The deal of an epoch, from the cache or built (and cached) now.
  std::shared_ptr<const shard_epoch> deal(std::uint64_t epoch) const;
  // Record j of accelerator a's stream in the epoch of t.
  std::uint32_t record(const shard_epoch& t, std::uint64_t a, std::uint64_t j) const;

private:
  shard_epoch build(std::uint64_t epoch) const;
  std::uint64_t records_in(std::uint64_t shard) const {
    return m_first[shard + 1] - m_first[shard];
  }

  std::vector<std::uint64_t> m_first;
  std::uint64_t m_shards, m_accels, m_batch, m_epochs, m_seed;
  std::uint64_t m_uniform_steps = 0;        // shards of equal records: the steps of every epoch
  std::vector<std::uint64_t> m_epoch_first; // unequal: each epoch's first step, then the end
  std::uint64_t m_fewest_steps = 0, m_most_dropped = 0;
  // The deals last asked for, epoch e in slot e % 4: an accelerator's prefetch window spans
  // the end of one epoch and the start of the next (accelerators meet at every epoch's end).
  mutable std::mutex m_m;
  mutable std::array<std::shared_ptr<const shard_epoch>, 4> m_cache;
};

} // namespace dlsize::pipeline
