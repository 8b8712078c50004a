#pragma once
// Printers of a comparison (analysis::compare_reports): the executive summary, the terminal
// table, Markdown, and one self-contained HTML page with bar charts.
#include <string>

#include "analysis/compare_document.hpp"
#include "render/text_table.hpp"

namespace dlsize::render {

// The executive summary: per accelerator count, which backend wins on samples/s and by how
// much (Welch's interval on log samples/s, "not enough runs" below 3), how many points qualify
// for MLPerf Storage, and what was left out.
std::string compare_summary(const analysis::compare_document& comparison);
// The side-by-side table of the headline accelerator count (or of `section`): a row per
// metric, a column per backend.
text_table compare_table(const analysis::compare_document& comparison);
text_table compare_table(const analysis::compare_section& section);
// The MLPerf Storage verdict per point (accelerator count × backend): verdict and open rules,
// runs counted, the warm-up, the spread of samples/s.
text_table compare_validity_table(const analysis::compare_document& comparison);
// That table and, per point, every rule with its figures, source and judging command.
std::string compare_validity_markdown(const analysis::compare_document& comparison);
// The comparison as Markdown, and as one self-contained HTML page with bar charts.
std::string compare_markdown(const analysis::compare_document& comparison);
std::string compare_html(const analysis::compare_document& comparison);

} // namespace dlsize::render
