#include "render/point_validity_text.hpp"

#include <fmt/format.h>

namespace dlsize::render {

std::string point_validity_cell(const analysis::point_validity& v) {
  std::vector<std::string> open;
  for (const auto& r : v.rules.rules)
    if (r.verdict != report::rule_verdict::pass)
      open.push_back(fmt::format("{}: {}", report::to_string(r.verdict), r.rule));
  const std::string verdict = v.rules.verdict();
  return open.empty() ? verdict : fmt::format("{} ({})", verdict, fmt::join(open, "; "));
}

std::vector<std::string> point_validity_lines(const analysis::point_validity& v) {
  std::vector<std::string> out;
  for (const auto& r : v.rules.rules)
    out.push_back(fmt::format("{} {}: {} (source: {}; judged by: {})", report::to_string(r.verdict),
                              r.rule, r.measured, r.source, r.judge));
  return out;
}

std::string qualifying_line(std::size_t qualifying, std::size_t points,
                            const std::string& edition) {
  // v1 and v2 keep the words of before; v3 names its runs rule and the edition.
  return fmt::format("MLPerf Storage: {} of {} point{} qualif{} ({}, within 5 % of each other, "
                     "each run valid by itself{})",
                     qualifying, points, points == 1 ? "" : "s", qualifying == 1 ? "ies" : "y",
                     edition == "v3" ? "6 runs of which the first is the warm-up"
                                     : "5 runs after a warm-up",
                     edition == "v3" ? "; v3.0 rules" : "");
}

std::string qualifying_summary(std::size_t qualifying, std::size_t points,
                               const std::string& edition) {
  const std::string rules = edition == "v3" ? "v3.0" : edition == "v1" ? "v1.0" : "v2.0";
  return fmt::format("{} of {} point{} qualif{} as MLPerf Storage {} runs{}", qualifying, points,
                     points == 1 ? "" : "s", qualifying == 1 && points == 1 ? "ies" : "y", rules,
                     qualifying == points ? "" : ": why in the appendix");
}

std::string rules_edition_of(const analysis::point_validity& v) {
  return report::to_string(v.rules.edition);
}

} // namespace dlsize::render
