#include "accel/compute_model.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace dlsize::accel {

compute_model::compute_model(double mean_s, double stdev_s, std::uint64_t seed)
    : m_mean(mean_s), m_stdev(stdev_s), m_rng(seed) {
  if (!(mean_s >= 0) || !std::isfinite(mean_s))
    throw usage_error("--compute-time: must be a finite time of at least 0 s");
  if (!(stdev_s >= 0) || !std::isfinite(stdev_s))
    throw usage_error("--compute-time-stdev: must be a finite time of at least 0 s");
}

std::uint64_t compute_model::draw_ns() {
  double t = m_mean;
  if (m_stdev > 0)
    t = m_mean + m_stdev * std::clamp(m_rng.normal(), -3.0, 3.0);
  return static_cast<std::uint64_t>(std::max(0.0, t) * 1e9 + 0.5);
}

} // namespace dlsize::accel
