#include "pipeline/sampler.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/error.hpp"
#include "pipeline/epoch_order.hpp"

namespace dlsize::pipeline {

sampler::sampler(std::uint64_t samples, std::uint64_t accelerators, std::uint64_t batch_size,
                 std::uint64_t epochs, std::uint64_t seed)
    : m_samples(samples), m_accelerators(accelerators), m_batch(batch_size), m_epochs(epochs),
      m_global_batch(0), m_seed(seed) {
  if (accelerators == 0)
    throw usage_error("--accelerators: must be at least 1");
  if (batch_size == 0)
    throw usage_error("--batch-size: must be at least 1");
  if (epochs == 0)
    throw usage_error("--epochs: must be at least 1");
  if (samples > UINT32_MAX)
    throw usage_error("--dataset: more than 2^32 samples");
  // Jobs are numbered over the whole run: epochs × samples must not wrap.
  if (epochs > (UINT64_MAX >> 1) / std::max<std::uint64_t>(samples, 1))
    throw usage_error(fmt::format("--epochs {} × {} dataset samples: more reads than a run can "
                                  "number (2^63). valid: at most {} epochs",
                                  epochs, samples,
                                  (UINT64_MAX >> 1) / std::max<std::uint64_t>(samples, 1)));
  // Compared before multiplying, so that a huge batch cannot wrap the product around.
  if (batch_size <= samples / accelerators) {
    m_global_batch = accelerators * batch_size;
    m_steps_per_epoch = samples / m_global_batch;
  }
  if (m_steps_per_epoch == 0)
    throw usage_error(fmt::format(
        "--dataset: {} samples do not fill one step of {} accelerators × batch {} = {:.0f} "
        "samples. "
        "valid: a larger dataset (dlsize datagen --size), fewer --accelerators or a smaller "
        "--batch-size",
        samples, accelerators, batch_size,
        static_cast<double>(accelerators) * static_cast<double>(batch_size)));
}

sample_slot sampler::slot(std::uint64_t k) const {
  sample_slot s;
  const std::uint64_t batch = k / m_batch;
  s.position = k % m_batch;
  s.step = batch / m_accelerators;
  s.accelerator = batch % m_accelerators;
  s.epoch = s.step / m_steps_per_epoch;
  return s;
}

std::uint32_t sampler::sample(std::uint64_t k) const {
  const std::uint64_t per_epoch = m_steps_per_epoch * m_global_batch;
  return static_cast<std::uint32_t>(epoch_order(m_samples, m_seed, k / per_epoch)(k % per_epoch));
}

} // namespace dlsize::pipeline
