#include "render/point_validity_text.hpp"

#include <fmt/format.h>

namespace dlsize::render {

std::string point_validity_cell(const nlohmann::json& block) {
  if (!block.is_object())
    return "–";
  std::vector<std::string> open;
  for (const auto& r : block["rules"])
    if (r["verdict"] != "PASS")
      open.push_back(
          fmt::format("{}: {}", r["verdict"].get<std::string>(), r["rule"].get<std::string>()));
  const std::string verdict = block["verdict"].get<std::string>();
  return open.empty() ? verdict : fmt::format("{} ({})", verdict, fmt::join(open, "; "));
}

std::vector<std::string> point_validity_lines(const nlohmann::json& block) {
  std::vector<std::string> out;
  if (!block.is_object())
    return out;
  for (const auto& r : block["rules"])
    out.push_back(fmt::format("{} {}: {} (source: {}; judged by: {})",
                              r["verdict"].get<std::string>(), r["rule"].get<std::string>(),
                              r["measured"].get<std::string>(), r["source"].get<std::string>(),
                              r["judged_by"].get<std::string>()));
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

std::string rules_edition_of(const nlohmann::json& block) {
  return block.is_object() ? block.value("rules_edition", std::string("v2")) : std::string("v2");
}

bool qualifies(const nlohmann::json& block) {
  return block.is_object() && block.value("qualifies", false);
}

} // namespace dlsize::render
