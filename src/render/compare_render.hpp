#pragma once
// Printers of a comparison (the JSON that analysis::compare_reports returns): the executive
// summary, the terminal table, Markdown, and one self-contained HTML page with bar charts.
#include <string>

#include <nlohmann/json.hpp>

#include "render/text_table.hpp"

namespace dlsize::render {

// The executive summary: per accelerator count, which backend wins on samples/s and by how
// much (Welch's interval on log samples/s, "not enough runs" below 3), how many points qualify
// for MLPerf Storage, and what was left out.
std::string compare_summary(const nlohmann::json& comparison);
// The side-by-side table: a row per metric, a column per backend.
text_table compare_table(const nlohmann::json& comparison);
// The MLPerf Storage verdict per point (accelerator count × backend): verdict and open rules,
// runs counted, the warm-up, the spread of samples/s.
text_table compare_validity_table(const nlohmann::json& comparison);
// That table and, per point, every rule with its figures, source and judging command.
std::string compare_validity_markdown(const nlohmann::json& comparison);
// The comparison as Markdown, and as one self-contained HTML page with bar charts.
std::string compare_markdown(const nlohmann::json& comparison);
std::string compare_html(const nlohmann::json& comparison);

} // namespace dlsize::render
