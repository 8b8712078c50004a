#include <fmt/format.h>

#include "render/cache_curve_tables.hpp"
#include "render/checkpoint_tables.hpp"
#include "render/sizing_render.hpp"
#include "render/sizing_tables.hpp"

namespace dlsize::render {

std::string sizing_markdown(const nlohmann::json& z) {
  std::string out = "# Storage sizing report\n\n";
  out +=
      fmt::format("Made {} by dlsize {} from {} reports.\n\n", z["created_at"].get<std::string>(),
                  z["tool"]["version"].get<std::string>(), z["inputs"]["reports"].size());
  out += "## Summary\n\n";
  for (const auto& l : summary_lines(z))
    out += "- " + l + "\n";
  for (const auto& l : checkpoint_summary_lines(z))
    out += "- " + l + "\n";
  out += "\n";
  for (const auto& s : z["series"]) {
    out += "## " + series_title(s) + "\n\n### Measured\n\n" + markdown_table(measured_table(s));
    if (const auto layouts = layout_table(s); !layouts.rows.empty())
      out += "\n### Scale-up against scale-out\n\n" + markdown_table(layouts);
    out += "\n### Model\n\n" + markdown_table(model_table(s));
    out += "\n### Projections\n\n" + markdown_table(projection_table(s)) + "\n";
    for (const auto& n : projection_notes(s))
      out += "- " + n + "\n";
    if (s.contains("objects")) {
      out += "\n### Object store requests\n\n" + markdown_table(object_table(s)) + "\n";
      for (const auto& l : object_notes(s))
        out += "- " + l + "\n";
    }
    out += "\n### Runs\n\n" + markdown_table(runs_table(s));
    if (!s["warnings"].empty()) {
      out += "\n";
      for (const auto& w : s["warnings"])
        out += "- warning: " + w.get<std::string>() + "\n";
    }
    out += "\n";
  }
  out += "## Write path: checkpoints\n\n";
  if (!z.contains("checkpoint_series") || z["checkpoint_series"].empty())
    out += write_path_note(z) + "\n\n";
  for (const auto& s : z.value("checkpoint_series", nlohmann::json::array())) {
    out += "### " + checkpoint_title(s) + "\n\n" + markdown_table(checkpoint_measured_table(s));
    out += "\n" + markdown_table(checkpoint_model_table(s));
    out += "\n" + markdown_table(checkpoint_runs_table(s)) + "\n";
    for (const auto& w : s["warnings"])
      out += "- warning: " + w.get<std::string>() + "\n";
    out += "\n";
  }
  for (const auto& c : z.value("cache_curves", nlohmann::json::array())) {
    out += "## " + cache_curve_title(c) + "\n\n" + markdown_table(cache_curve_table(c)) + "\n";
    for (const auto& l : cache_curve_lines(c))
      out += "- " + l + "\n";
    out += "\n";
  }
  out += "## Assumptions\n\n";
  for (const auto& a : assumption_lines(z))
    out += "- " + a + "\n";
  out += "\n## Reproduce\n\n```sh\n";
  for (const auto& c : z["reproduce"])
    out += c.get<std::string>() + "\n";
  out += "```\n";
  for (const auto& w : z["warnings"])
    out += "- note: " + w.get<std::string>() + "\n";
  return out;
}

} // namespace dlsize::render
