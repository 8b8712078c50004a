#pragma once
// Printers of a comparison (the JSON that analysis::compare_reports returns): the terminal
// table, Markdown, and one self-contained HTML page with bar charts.
#include <string>

#include <nlohmann/json.hpp>

#include "render/text_table.hpp"

namespace dlsize::render {

// The side-by-side table: a row per metric, a column per backend.
text_table compare_table(const nlohmann::json& comparison);
std::string compare_markdown(const nlohmann::json& comparison);
std::string compare_html(const nlohmann::json& comparison);

} // namespace dlsize::render
