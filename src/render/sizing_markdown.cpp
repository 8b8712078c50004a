#include <fmt/format.h>

#include "render/answer_render.hpp"
#include "render/cache_curve_tables.hpp"
#include "render/checkpoint_tables.hpp"
#include "render/goodput_tables.hpp"
#include "render/sizing_render.hpp"
#include "render/sizing_tables.hpp"

namespace dlsize::render {
namespace {

std::string series_markdown(const analysis::sizing_series& s) {
  std::string out =
      "## " + series_title(s) + "\n\n### Measured\n\n" + markdown_table(measured_table(s));
  if (const auto layouts = layout_table(s); !layouts.rows.empty())
    out += "\n### Scale-up against scale-out\n\n" + markdown_table(layouts);
  out += "\n### Model\n\n" + markdown_table(model_table(s));
  out += "\n### Projections\n\n" + markdown_table(projection_table(s)) + "\n";
  for (const auto& n : projection_notes(s))
    out += "- " + n + "\n";
  if (s.objects) {
    out += "\n### Object store requests\n\n" + markdown_table(object_table(s)) + "\n";
    for (const auto& l : object_notes(s))
      out += "- " + l + "\n";
  }
  out += "\n### Runs\n\n" + markdown_table(runs_table(s));
  if (!s.warnings.empty()) {
    out += "\n";
    for (const auto& w : s.warnings)
      out += "- warning: " + w + "\n";
  }
  return out + "\n";
}

} // namespace

std::string sizing_markdown(const analysis::sizing_document& z) {
  std::string out = "# Storage sizing report\n\n";
  out += fmt::format("Made {} by dlsize {} from {} reports.\n\n", z.created_at, z.tool_version,
                     z.reports.size());
  out += "## The answer\n\n";
  for (const auto& a : z.answers)
    out += answer_markdown(a, z.requirements.at(a.requirement));
  for (const auto& l : summary_lines(z))
    out += "- " + l + "\n";
  for (const auto& l : checkpoint_summary_lines(z))
    out += "- " + l + "\n";
  out += "\n";
  for (const auto& s : z.series)
    out += series_markdown(s);
  out += "## Write path: checkpoints\n\n";
  if (z.checkpoint_series.empty())
    out += write_path_note(z) + "\n\n";
  for (const auto& s : z.checkpoint_series) {
    out += "### " + checkpoint_title(s) + "\n\n" + markdown_table(checkpoint_measured_table(s));
    out += "\n" + markdown_table(checkpoint_model_table(s));
    out += "\n" + markdown_table(checkpoint_runs_table(s)) + "\n";
    for (const auto& w : s.warnings)
      out += "- warning: " + w + "\n";
    out += "\n";
  }
  out += goodput_markdown(z.goodput);
  for (const auto& c : z.cache_curves) {
    out += "## " + cache_curve_title(c) + "\n\n" + markdown_table(cache_curve_table(c)) + "\n";
    for (const auto& l : cache_curve_lines(c))
      out += "- " + l + "\n";
    out += "\n";
  }
  out += "## Assumptions\n\n";
  for (const auto& a : assumption_lines(z))
    out += "- " + a + "\n";
  if (const auto appendix = validity_appendix(z); !appendix.empty()) {
    out += "\n## Appendix: MLPerf Storage validity per point\n\n";
    for (const auto& e : appendix) {
      out += "- " + e.point + "\n";
      for (const auto& l : e.lines)
        out += "  - " + l + "\n";
    }
  }
  out += "\n## Reproduce\n\n```sh\n";
  for (const auto& c : z.reproduce)
    out += c + "\n";
  out += "```\n";
  for (const auto& w : z.warnings)
    out += "- note: " + w + "\n";
  return out;
}

} // namespace dlsize::render
