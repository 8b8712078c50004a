#pragma once
// The write path of a sizing report (its checkpoint_series): the tables and sentences shown by
// both the Markdown and the HTML renderer.
#include <string>
#include <vector>

#include "analysis/sizing_document.hpp"
#include "render/text_table.hpp"

namespace dlsize::render {

// "llama3-8b checkpoints (dlsize checkpoint), /mnt/ck (xfs), direct I/O, 13.1 MiB each, scale
// 0.000122"
std::string checkpoint_title(const analysis::checkpoint_series_document& series);
// Per rank count: runs, write bandwidth and duration, restore bandwidth and duration.
text_table checkpoint_measured_table(const analysis::checkpoint_series_document& series);
// Per path (write, restore): the line fit, the knee test's decision, the best median.
text_table checkpoint_model_table(const analysis::checkpoint_series_document& series);
// Every run: ranks, write and restore bandwidth with fitted values and residuals, file.
text_table checkpoint_runs_table(const analysis::checkpoint_series_document& series);
// The summary's lines of the write path: one per series, or that it is not measured, then
// each backend's goodput verdict.
std::vector<std::string> checkpoint_summary_lines(const analysis::sizing_document& sizing);
// What the sizing says of the write path when it has no checkpoint evidence.
std::string write_path_note(const analysis::sizing_document& sizing);

} // namespace dlsize::render
