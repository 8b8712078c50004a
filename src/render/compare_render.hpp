#pragma once
// Printers of a comparison (analysis::compare_reports): the executive summary, the terminal
// table, Markdown, and one self-contained HTML page with bar charts.
#include <string>
#include <vector>

#include "analysis/compare_document.hpp"
#include "render/text_table.hpp"

namespace dlsize::render {

// A backend's median samples/s; NaN where no run has it.
double median_samples_per_s(const analysis::compare_backend& b);
// Per accelerator count, each backend against the first on samples/s: faster only where
// Welch's 95 % interval on the ratio excludes 1, "no difference" where it spans 1, not judged
// below 3 runs a side; how many points qualify for MLPerf Storage; what was left out.
std::string compare_summary(const analysis::compare_document& comparison);
// Those verdicts, one sentence per backend and count (the winner in bold where markdown).
std::vector<std::string> compare_verdicts(const analysis::compare_document& comparison,
                                          bool markdown);
// The side-by-side table of the headline accelerator count (or of `section`): a row per
// metric, a column per backend.
text_table compare_table(const analysis::compare_document& comparison);
text_table compare_table(const analysis::compare_section& section);
// The MLPerf Storage verdict per point (accelerator count × backend): verdict and open rules,
// runs counted, the warm-up, the spread of samples/s.
text_table compare_validity_table(const analysis::compare_document& comparison);
// That table and, per point, every rule with its figures, source and judging command.
std::string compare_validity_markdown(const analysis::compare_document& comparison);
// The buyer's answer over the comparison's runs (as size gives it), as Markdown; "" without one.
std::string compare_answer_markdown(const analysis::compare_document& comparison);
// The terminal's short page where the whole one goes to a file (--markdown, --html): the
// answer, then per accelerator count each backend against the first.
std::string compare_terminal(const analysis::compare_document& comparison);
// The comparison as Markdown, and as one self-contained HTML page with charts.
std::string compare_markdown(const analysis::compare_document& comparison);
std::string compare_html(const analysis::compare_document& comparison);

} // namespace dlsize::render
