// The "mlperf_validity" block of the sizing and comparison documents: the one place a
// point_validity's keys are written (to_json) and read back (point_validity_from_json).
#include <cmath>

#include "analysis/point_validity.hpp"
#include "core/enum_names.hpp"

namespace dlsize::analysis {

nlohmann::json to_json(const point_validity& v) {
  nlohmann::json rules = nlohmann::json::array();
  for (const auto& r : v.rules.rules)
    rules.push_back({{"rule", r.rule},
                     {"verdict", report::to_string(r.verdict)},
                     {"measured", r.measured},
                     {"source", r.source},
                     {"judged_by", r.judge}});
  nlohmann::json left_out = nlohmann::json::array();
  for (const auto& l : v.left_out)
    left_out.push_back({{"file", l.file}, {"reason", l.reason}});
  return {{"rules_edition", report::to_string(v.rules.edition)},
          {"verdict", v.rules.verdict()},
          {"qualifies", v.qualifies()},
          {"runs_counted", v.counted.size()},
          {"counted", v.counted},
          {"warm_up", v.warm_up ? nlohmann::json(*v.warm_up) : nlohmann::json(nullptr)},
          {"left_out", left_out},
          {"samples_per_s_spread",
           std::isfinite(v.spread) ? nlohmann::json(v.spread) : nlohmann::json(nullptr)},
          {"rules", rules}};
}

point_validity point_validity_from_json(const nlohmann::json& j) {
  point_validity v;
  v.rules.edition = report::parse_rules_edition(j.at("rules_edition").get<std::string>(),
                                                "mlperf_validity.rules_edition");
  for (const auto& r : j.at("rules"))
    v.rules.rules.push_back(
        {r.at("rule").get<std::string>(),
         core::read_enum<report::rule_verdict>(r.at("verdict").get<std::string>(),
                                               "mlperf_validity rule verdict"),
         r.at("measured").get<std::string>(), r.at("source").get<std::string>(),
         r.at("judged_by").get<std::string>()});
  v.counted = j.at("counted").get<std::vector<std::string>>();
  if (j.at("warm_up").is_string())
    v.warm_up = j.at("warm_up").get<std::string>();
  for (const auto& l : j.at("left_out"))
    v.left_out.push_back({l.at("file").get<std::string>(), l.at("reason").get<std::string>()});
  if (j.at("samples_per_s_spread").is_number())
    v.spread = j.at("samples_per_s_spread").get<double>();
  return v;
}

} // namespace dlsize::analysis
