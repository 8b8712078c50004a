#include "analysis/cache_sweep.hpp"

#include <fmt/format.h>

#include "analysis/cache_model.hpp"
#include "report/run_identity.hpp"

namespace dlsize::analysis {

std::map<std::string, cache_curve> cache_curves_of(const std::vector<const loaded_report*>& rs) {
  std::map<std::string, std::vector<cache_point>> points;
  for (const auto* lr : rs) {
    // A point of a cache sweep: a run under --client-ram whose warm epochs were measured.
    const report::bench_report& r = lr->fields;
    const auto& ram = report::or_empty(r.cache_emulation).client_ram_bytes;
    const auto& warm = report::or_empty(r.storage).warm_epochs;
    const auto& bytes = report::or_empty(r.dataset).bytes;
    if (!ram.has_value() || !warm.has_value() || !warm->storage_per_read_byte.has_value() ||
        !bytes.has_value())
      continue;
    cache_point p;
    p.file = lr->file;
    p.f = report::bench_report::number(ram) / report::bench_report::number(bytes);
    p.storage_per_read = *warm->storage_per_read_byte;
    points[report::workload_of(r)].push_back(p);
  }
  std::map<std::string, cache_curve> out;
  for (auto& [workload, ps] : points)
    out.emplace(workload, fit_cache_curve(std::move(ps)));
  return out;
}

cache_choice choose_cache_model(cache_model_kind asked, const std::string& workload,
                                const std::map<std::string, cache_curve>& curves) {
  cache_choice c;
  if (asked == cache_model_kind::lru || asked == cache_model_kind::never_evict) {
    c.model = asked;
    c.reason = fmt::format("--cache-model {}", cache_model_name(asked));
    return c;
  }
  const auto it = curves.find(workload);
  if (it != curves.end() && it->second.usable()) {
    c.model = cache_model_kind::measured;
    c.curve = &it->second;
    c.reason = fmt::format("the measured cache curve of {}'s cache sweep ({} runs at {} distinct "
                           "f){}",
                           workload, it->second.points.size(), it->second.knots.size(),
                           asked == cache_model_kind::automatic ? " (--cache-model auto)" : "");
    return c;
  }
  c.model = cache_model_kind::lru;
  const std::string why =
      it == curves.end()
          ? fmt::format("no cache sweep of {} among the reports (bench --client-ram with "
                        "several dataset sizes, scripts/cache-sweep.sh)",
                        workload)
          : fmt::format("the cache sweep of {} has {} distinct f ({} needed for a curve)", workload,
                        it->second.knots.size(), kMinCacheCurveFractions);
  c.reason = "lru: " + why;
  if (asked == cache_model_kind::measured || it != curves.end())
    c.warning =
        fmt::format("--cache-model {}: {}; the lru model is used", cache_model_name(asked), why);
  return c;
}

} // namespace dlsize::analysis
