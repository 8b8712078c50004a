#include "pipeline/sampler.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/error.hpp"
#include "pipeline/epoch_order.hpp"

namespace dlsize::pipeline {

void sampler::check_shape(std::uint64_t samples) const {
  if (m_accelerators == 0)
    throw usage_error("--accelerators: must be at least 1");
  if (m_batch == 0)
    throw usage_error("--batch-size: must be at least 1");
  if (m_epochs == 0)
    throw usage_error("--epochs: must be at least 1");
  if (samples > UINT32_MAX)
    throw usage_error("--dataset: more than 2^32 samples");
  // Jobs are numbered over the whole run: epochs × samples must not wrap.
  if (m_epochs > (UINT64_MAX >> 1) / std::max<std::uint64_t>(samples, 1))
    throw usage_error(fmt::format("--epochs {} × {} dataset samples: more reads than a run can "
                                  "number (2^63). valid: at most {} epochs",
                                  m_epochs, samples,
                                  (UINT64_MAX >> 1) / std::max<std::uint64_t>(samples, 1)));
  // Compared before multiplying, so that a huge batch cannot wrap the product around.
  if (m_batch > samples / m_accelerators)
    throw usage_error(fmt::format(
        "--dataset: {} samples do not fill one step of {} accelerators × batch {} = {:.0f} "
        "samples. "
        "valid: a larger dataset (dlsize datagen --size), fewer --accelerators or a smaller "
        "--batch-size",
        samples, m_accelerators, m_batch,
        static_cast<double>(m_accelerators) * static_cast<double>(m_batch)));
}

sampler::sampler(std::uint64_t samples, std::uint64_t accelerators, std::uint64_t batch_size,
                 std::uint64_t epochs, std::uint64_t seed)
    : m_samples(samples), m_accelerators(accelerators), m_batch(batch_size), m_epochs(epochs),
      m_seed(seed) {
  check_shape(samples);
  m_global_batch = accelerators * batch_size;
  m_steps_per_epoch = samples / m_global_batch;
  m_total_steps = m_steps_per_epoch * epochs;
  m_dropped = samples - m_steps_per_epoch * m_global_batch;
}

sampler::sampler(std::vector<std::uint64_t> shard_first, std::uint64_t accelerators,
                 std::uint64_t batch_size, std::uint64_t epochs, std::uint64_t seed)
    : m_samples(shard_first.empty() ? 0 : shard_first.back()), m_accelerators(accelerators),
      m_batch(batch_size), m_epochs(epochs), m_seed(seed) {
  check_shape(m_samples);
  m_global_batch = accelerators * batch_size;
  m_stream = std::make_unique<const shard_stream>(std::move(shard_first), accelerators, batch_size,
                                                  epochs, seed);
  m_steps_per_epoch = m_stream->fewest_steps();
  m_total_steps = m_stream->total_steps();
  m_dropped = m_stream->most_dropped();
}

sample_slot sampler::slot(std::uint64_t k) const {
  sample_slot s;
  const std::uint64_t batch = k / m_batch;
  s.position = k % m_batch;
  s.step = batch / m_accelerators;
  s.accelerator = batch % m_accelerators;
  s.epoch = epoch_of(s.step);
  return s;
}

std::uint32_t sampler::sample(std::uint64_t k, epoch_hold& hold) const {
  if (!m_stream) {
    const std::uint64_t per_epoch = m_steps_per_epoch * m_global_batch;
    return static_cast<std::uint32_t>(epoch_order(m_samples, m_seed, k / per_epoch)(k % per_epoch));
  }
  const sample_slot s = slot(k);
  if (!hold || hold->epoch != s.epoch)
    hold = m_stream->deal(s.epoch);
  // The accelerator's stream position: its whole batches of this epoch so far, then the place.
  const std::uint64_t j = (s.step - m_stream->first_step(s.epoch)) * m_batch + s.position;
  return m_stream->record(*hold, s.accelerator, j);
}

} // namespace dlsize::pipeline
