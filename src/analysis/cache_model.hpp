#pragma once
// The cache models of the sizing method (docs/sizing.md), for projections only: a measured hit
// ratio is always preferred. f = cache bytes / dataset bytes.
#include <algorithm>
#include <cmath>

namespace dlsize::analysis {

// A cache that never evicts (it keeps the first C bytes it sees): hits min(1, f).
inline double never_evict_hit_ratio(double cache_bytes, double dataset_bytes) {
  if (dataset_bytes <= 0)
    return 1.0;
  return std::clamp(cache_bytes / dataset_bytes, 0.0, 1.0);
}

// An LRU-like cache under a new random order every epoch: f + (1 − f)·ln(1 − f), 1 at f ≥ 1.
inline double lru_hit_ratio(double cache_bytes, double dataset_bytes) {
  const double f = never_evict_hit_ratio(cache_bytes, dataset_bytes);
  if (f >= 1.0)
    return 1.0;
  return std::max(0.0, f + (1.0 - f) * std::log1p(-f));
}

} // namespace dlsize::analysis
