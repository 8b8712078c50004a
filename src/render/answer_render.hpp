#pragma once
// The buyer's answer (analysis/sizing_answer) as the first screen of `size` and `compare`: the
// load's requirement in one line, one table row per target with one required bandwidth, one
// provision and each backend's verdict, the cost where the buyer gave prices, and the
// recommendation. The same tables feed the terminal, Markdown and HTML.
#include <string>
#include <vector>

#include "analysis/requirement.hpp"
#include "analysis/sizing_answer.hpp"
#include "render/html_page.hpp"
#include "render/text_table.hpp"

namespace dlsize::render {

// One unit for every bandwidth of a table: GB/s where its largest figure is 1,000 MB/s or more.
struct rate_unit {
  double scale = 1e6;
  const char* name = "MB/s";
};
rate_unit unit_for(const std::vector<double>& bytes_per_s);
// v in the unit, 3 significant digits ("13.4", "0.6"); "–" where v is not finite.
std::string in_unit(double v, const rate_unit& u);

// "resnet50 on h100: what 64, 128 and 256 accelerators need"
std::string answer_title(const analysis::sizing_answer& a);
// The requirement per accelerator, measured beside planned, and why they differ (> 5 %).
std::vector<std::string> requirement_lines(const analysis::workload_requirement& r);
// Per target (and data growth where it changes the bandwidth): required with its 95 % interval,
// provision, each backend's verdict in the table's unit, and the cheapest where priced.
text_table answer_table(const analysis::sizing_answer& a);
// Per row and priced backend: capacity, cost of bandwidth and capacity, total, per accelerator;
// no rows where nothing is priced.
text_table cost_table(const analysis::sizing_answer& a);
// What the rows assume: the provision rule, the cache, the capacity, the clients' network.
std::vector<std::string> answer_notes(const analysis::sizing_answer& a);

// The whole answer as Markdown (a level-3 heading per load), as HTML into a page, and as the
// terminal's first screen.
std::string answer_markdown(const analysis::sizing_answer& a,
                            const analysis::workload_requirement& r);
void add_answer_html(html_page& page, const analysis::sizing_answer& a,
                     const analysis::workload_requirement& r);
std::string answer_terminal(const analysis::sizing_answer& a,
                            const analysis::workload_requirement& r);

// A table for a terminal: columns padded to their widest cell (UTF-8 aware), two spaces apart.
std::string aligned_table(const text_table& t, const std::string& indent = "  ");

} // namespace dlsize::render
