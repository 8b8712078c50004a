#pragma once
// The cache sweeps among size's inputs: reports of bench --client-ram (a cache_emulation block)
// with warm-epoch figures (storage.warm_epochs), one measured cache curve per workload, and
// which curve or model each series' projections use (docs/sizing.md, "Cache and data growth").
#include <map>
#include <string>
#include <vector>

#include "analysis/cache_curve.hpp"
#include "analysis/projection.hpp"
#include "analysis/report_set.hpp"

namespace dlsize::analysis {

// Per workload, the curve of its reports that emulated a client's RAM and measured warm epochs;
// reports without both are not part of any sweep. Throws usage_error for a point whose figures
// make no curve (analysis::fit_cache_curve).
std::map<std::string, cache_curve> cache_curves_of(const std::vector<const loaded_report*>& rs);

// The model a series' projections use, and why.
struct cache_choice {
  cache_model_kind model = cache_model_kind::lru;
  const cache_curve* curve = nullptr; // with measured
  std::string reason;
  std::string warning; // where --cache-model measured could not be honoured
};

// automatic and measured take the workload's curve where it is usable (at least
// kMinCacheCurveFractions distinct f) and fall back to lru otherwise, saying so; lru and
// never-evict are used as asked.
cache_choice choose_cache_model(cache_model_kind asked, const std::string& workload,
                                const std::map<std::string, cache_curve>& curves);

} // namespace dlsize::analysis
