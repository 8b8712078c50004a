#pragma once
// The goodput sections (analysis/goodput_document.hpp) as every output shows them: plan's
// terminal text, and the Markdown, HTML and chart of size and compare, one section per backend
// with its verdict beside the read verdicts.
#include <string>
#include <vector>

#include "analysis/goodput_document.hpp"
#include "render/html_page.hpp"
#include "render/text_table.hpp"

namespace dlsize::render {

// "holds the 5 % loss up to 12,345 accelerators" (or at none, or beyond the search).
std::string goodput_verdict(const analysis::goodput_document& d);
// One line per backend: "Goodput, llama3-8b on tmpfs: holds the 5 % loss up to …".
std::vector<std::string> goodput_summary_lines(const std::vector<analysis::goodput_document>& g);
// The inputs with their sources: checkpoint, MTTF, write, restore, restart, mode.
std::vector<std::string> goodput_input_lines(const analysis::goodput_document& d);
// Per count: system MTTF, checkpoint, restart, interval, the loss in three, goodput, and the
// write bandwidth for the target.
text_table goodput_table(const analysis::goodput_document& d);
// The loss against the accelerators, one line per backend, the target as a reference line.
std::string goodput_chart(const std::vector<analysis::goodput_document>& g);

// The "Goodput" section of a Markdown report ("" when there is none).
std::string goodput_markdown(const std::vector<analysis::goodput_document>& g);
// The same section in an HTML report, with the chart (nothing when there is none).
void add_goodput_html(html_page& page, const std::vector<analysis::goodput_document>& g);
// size's terminal text: per backend its inputs, table and warnings ("" when there is none);
// the verdicts are goodput_summary_lines'.
std::string goodput_terminal(const std::vector<analysis::goodput_document>& g);
// plan's terminal text: the planned count's interval, loss, goodput and bandwidth for the
// target, then the table.
std::string goodput_text(const analysis::goodput_document& d);

} // namespace dlsize::render
