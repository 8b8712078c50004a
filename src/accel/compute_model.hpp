#pragma once
// Compute time per batch of an emulated accelerator: a scalar, or a normal distribution
// clipped to mean ± 3σ (and at zero). Draws are reproducible per accelerator from the seed.
#include <cstdint>

#include "core/rng.hpp"

namespace dlsize::accel {

class compute_model {
public:
  compute_model(double mean_s, double stdev_s, std::uint64_t seed);
  // The next step's compute time in nanoseconds.
  std::uint64_t draw_ns();
  double mean_s() const { return m_mean; }
  double stdev_s() const { return m_stdev; }

private:
  double m_mean, m_stdev;
  xoshiro256 m_rng;
};

} // namespace dlsize::accel
