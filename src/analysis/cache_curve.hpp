#pragma once
// The measured cache curve of a cache sweep (bench --client-ram over datasets of several sizes,
// scripts/cache-sweep.sh): storage bytes per byte the loaders read in the warm epochs, against
// f = client RAM / dataset, fitted as a monotone piecewise-linear curve and set beside the two
// cache models (analysis/cache_model.hpp). The kernel's page cache is neither model: it hits
// less than LRU below f ≈ 0.8, and its readahead reads pages that are evicted before use, so a
// dataset well beyond the cache costs more storage bytes than the loaders read (docs/sizing.md).
#include <cstddef>
#include <string>
#include <vector>

namespace dlsize::analysis {

// Fewer distinct f than this and the curve is not used for projections.
inline constexpr std::size_t kMinCacheCurveFractions = 3;

// One run of the sweep: its warm epochs' storage bytes per byte read (storage.warm_epochs.
// storage_per_read_byte; above 1 where readahead reads more than the loaders use) and the hit
// ratio that makes, clamp(1 − storage_per_read, 0, 1).
struct cache_point {
  std::string file;
  double f = 0; // client RAM / dataset bytes
  double storage_per_read = 1;
  double hit_ratio() const;
};

// The curve at one distinct f: the median of its runs, then made monotone.
struct cache_knot {
  double f = 0;
  double measured_storage_per_read = 1; // median of the runs
  double storage_per_read = 1;          // the fit
  std::size_t runs = 0;
};

// The residuals of one curve (fit or model) against every run's hit ratio: measured − curve.
struct cache_residuals {
  double rms = 0;
  double mean = 0; // below 0: the kernel hits less than the curve says
  double max_abs = 0;
};

struct cache_curve {
  std::vector<cache_point> points; // ascending f
  std::vector<cache_knot> knots;   // one per distinct f, ascending
  bool usable() const { return knots.size() >= kMinCacheCurveFractions; }
  double smallest_f() const { return knots.front().f; }
  double largest_f() const { return knots.back().f; }
  // Linear between knots, the nearest knot's value outside them. Needs at least one knot.
  double storage_per_read_at(double f) const;
  double hit_ratio_at(double f) const; // clamp(1 − storage_per_read_at(f), 0, 1)
  // Storage bytes per byte read at the smallest f: the readahead amplification of a dataset
  // far beyond the cache.
  double readahead_amplification() const { return knots.front().storage_per_read; }
  cache_residuals fit_residuals() const;
  cache_residuals lru_residuals() const;
  cache_residuals never_evict_residuals() const;
  // Every run's storage bytes per byte read − the fit's at its f (the part the hit ratio's
  // residuals do not see where it is 0: readahead amplification).
  cache_residuals fit_storage_residuals() const;
};

// Runs whose f agree within 1e-6 (relative) share a knot; the knots' medians are made
// non-increasing in f by pool-adjacent-violators weighted by their runs (a larger share of the
// dataset in cache never needs more storage per byte read). Throws usage_error for a point with
// f or storage_per_read not finite and above 0 (f) or at or above 0 (storage_per_read), naming
// its file.
cache_curve fit_cache_curve(std::vector<cache_point> points);

} // namespace dlsize::analysis
