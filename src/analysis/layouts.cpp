#include "analysis/layouts.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "analysis/stats.hpp"

namespace dlsize::analysis {

nlohmann::json layout_rows(const std::vector<run_point>& runs) {
  nlohmann::json rows = nlohmann::json::array();
  if (runs.empty())
    return rows;
  // Linear scaling's reference: samples/s per accelerator at the smallest count, all layouts.
  const double smallest = std::min_element(runs.begin(), runs.end(), [](auto& a, auto& b) {
                            return a.accelerators < b.accelerators;
                          })->accelerators;
  std::vector<double> base;
  // A layout declared on one host (topology.declared) only models its nodes, so it is compared
  // with other declared layouts, never with real hosts: declared -> count -> nodes -> samples/s.
  std::map<bool, std::map<double, std::map<double, std::vector<double>>>> by_kind;
  for (const auto& r : runs) {
    if (r.accelerators == smallest)
      base.push_back(r.samples_per_s_per_accelerator);
    by_kind[r.declared_nodes][r.accelerators][r.nodes].push_back(r.samples_per_s);
  }
  const double per_accelerator = median(base);
  for (const auto& [declared, by_count] : by_kind)
    for (const auto& [count, layouts] : by_count) {
      if (layouts.size() < 2)
        continue;
      const double fewest = median(layouts.begin()->second);
      for (const auto& [nodes, sps] : layouts) {
        const auto st = stats_of(sps);
        const double linear = count * per_accelerator;
        rows.push_back(
            {{"accelerators", count},
             {"nodes", nodes},
             {"declared", declared},
             {"accelerators_per_node", count / nodes},
             {"runs", sps.size()},
             {"samples_per_s", {{"median", st.median}, {"min", st.min}, {"max", st.max}}},
             {"efficiency_vs_linear", linear > 0 ? nlohmann::json(st.median / linear) : nullptr},
             {"difference_vs_fewest_nodes",
              fewest > 0 ? nlohmann::json(st.median / fewest - 1) : nullptr}});
      }
    }
  return rows;
}

} // namespace dlsize::analysis
