// The mlperf_validity block of bench and checkpoint reports.
#include "report/mlperf_validity.hpp"

namespace dlsize::report {

nlohmann::json to_json(const validity& v) {
  nlohmann::json rules = nlohmann::json::array();
  for (const auto& r : v.rules)
    rules.push_back({{"rule", r.rule},
                     {"verdict", to_string(r.verdict)},
                     {"measured", r.measured},
                     {"source", r.source},
                     {"judged_by", r.judge}});
  return {{"rules_edition", to_string(v.edition)}, {"verdict", v.verdict()}, {"rules", rules}};
}

} // namespace dlsize::report
