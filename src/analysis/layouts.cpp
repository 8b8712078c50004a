#include "analysis/layouts.hpp"

#include <algorithm>
#include <cmath>
#include <map>

#include "analysis/stats.hpp"

namespace dlsize::analysis {

std::vector<layout_row> layout_rows(const std::vector<run_point>& runs) {
  std::vector<layout_row> rows;
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
        layout_row row{count, nodes, declared, count / nodes, sps.size(), st, {}, {}};
        if (linear > 0)
          row.efficiency_vs_linear = st.median / linear;
        if (fewest > 0)
          row.difference_vs_fewest_nodes = st.median / fewest - 1;
        rows.push_back(row);
      }
    }
  return rows;
}

} // namespace dlsize::analysis
