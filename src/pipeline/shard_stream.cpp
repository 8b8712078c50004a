#include "pipeline/shard_stream.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/memory_budget.hpp"
#include "pipeline/epoch_order.hpp"

namespace dlsize::pipeline {
namespace {

[[noreturn]] void short_epoch(std::uint64_t epoch, std::uint64_t accelerator, std::uint64_t records,
                              std::uint64_t batch) {
  throw usage_error(fmt::format(
      "--shard-read stream: in epoch {}, accelerator {}'s shards hold {} records, less than one "
      "batch of {}. valid: a smaller --batch-size, fewer --accelerators, or --shard-read records",
      epoch, accelerator, records, batch));
}

} // namespace

shard_stream::shard_stream(std::vector<std::uint64_t> first_record, std::uint64_t accelerators,
                           std::uint64_t batch_size, std::uint64_t epochs, std::uint64_t seed)
    : m_first(std::move(first_record)), m_shards(m_first.size() - 1), m_accels(accelerators),
      m_batch(batch_size), m_epochs(epochs), m_seed(seed) {
  if (m_shards < m_accels)
    throw usage_error(fmt::format(
        "--shard-read stream: {} shards for {} accelerators; each accelerator streams whole "
        "shards (as tf.data's Dataset.shard), so some would have none. valid: at most {} "
        "accelerators, or --shard-read records",
        m_shards, m_accels, m_shards));
  const std::uint64_t records = m_first.back() - m_first.front();
  bool uniform = true;
  for (std::uint64_t f = 1; f < m_shards && uniform; ++f)
    uniform = records_in(f) == records_in(0);
  if (uniform) {
    // Every deal gives each accelerator ⌊S/A⌋ or ⌈S/A⌉ shards of equal size: one count for all.
    const std::uint64_t fewest = m_shards / m_accels * records_in(0);
    if (fewest < m_batch)
      short_epoch(0, m_accels - 1, fewest, m_batch);
    m_uniform_steps = m_fewest_steps = fewest / m_batch;
    m_most_dropped = records - m_uniform_steps * m_accels * m_batch;
    return;
  }
  core::check_memory_budget(
      core::saturating_mul(epochs + 1, sizeof(std::uint64_t)),
      fmt::format("--shard-read stream over {} epochs (each epoch's step count)", epochs),
      "fewer --epochs, or --time-limit");
  // Walks each epoch's deal once (S permuted positions per epoch) to count its steps.
  m_epoch_first.reserve(epochs + 1);
  m_epoch_first.push_back(0);
  m_fewest_steps = UINT64_MAX;
  std::vector<std::uint64_t> sum(m_accels);
  for (std::uint64_t e = 0; e < epochs; ++e) {
    const epoch_order order(m_shards, m_seed, e);
    std::fill(sum.begin(), sum.end(), 0);
    for (std::uint64_t i = 0; i < m_shards; ++i)
      sum[i % m_accels] += records_in(order(i));
    const auto least = std::min_element(sum.begin(), sum.end());
    if (*least < m_batch)
      short_epoch(e, static_cast<std::uint64_t>(least - sum.begin()), *least, m_batch);
    const std::uint64_t steps = *least / m_batch;
    m_fewest_steps = std::min(m_fewest_steps, steps);
    m_most_dropped = std::max(m_most_dropped, records - steps * m_accels * m_batch);
    m_epoch_first.push_back(m_epoch_first.back() + steps);
  }
}

std::uint64_t shard_stream::epoch_of(std::uint64_t step) const {
  if (m_epoch_first.empty())
    return step / m_uniform_steps;
  return static_cast<std::uint64_t>(
      std::upper_bound(m_epoch_first.begin(), m_epoch_first.end(), step) - m_epoch_first.begin() -
      1);
}

shard_epoch shard_stream::build(std::uint64_t epoch) const {
  const epoch_order order(m_shards, m_seed, epoch);
  shard_epoch t;
  t.epoch = epoch;
  t.shard.resize(m_shards);
  t.before.resize(m_shards);
  t.start.resize(m_accels + 1);
  for (std::uint64_t a = 0; a < m_accels; ++a) {
    // Positions a, a + A, a + 2A, ... of the permuted list: ⌈(S − a) / A⌉ shards.
    const std::uint64_t n = (m_shards - a + m_accels - 1) / m_accels;
    t.start[a + 1] = t.start[a] + n;
    std::uint64_t before = 0;
    for (std::uint64_t q = 0; q < n; ++q) {
      const std::uint64_t i = t.start[a] + q;
      t.shard[i] = static_cast<std::uint32_t>(order(a + q * m_accels));
      t.before[i] = before;
      before += records_in(t.shard[i]);
    }
  }
  return t;
}

std::shared_ptr<const shard_epoch> shard_stream::deal(std::uint64_t epoch) const {
  std::lock_guard lk(m_m);
  auto& slot = m_cache[epoch % m_cache.size()];
  if (!slot || slot->epoch != epoch)
    slot = std::make_shared<const shard_epoch>(build(epoch));
  return slot;
}

std::uint32_t shard_stream::record(const shard_epoch& t, std::uint64_t a, std::uint64_t j) const {
  const auto lo = t.before.begin() + static_cast<std::ptrdiff_t>(t.start[a]);
  const auto hi = t.before.begin() + static_cast<std::ptrdiff_t>(t.start[a + 1]);
  const auto i = static_cast<std::uint64_t>(std::upper_bound(lo, hi, j) - t.before.begin() - 1);
  return static_cast<std::uint32_t>(m_first[t.shard[i]] + (j - t.before[i]));
}

} // namespace dlsize::pipeline
