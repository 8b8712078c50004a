#pragma once
// `dlsize compare`: storage backends under identical training loads. Reports are grouped by
// backend (the dataset's path and file system, and --max-read-rate when one stands in for a
// slower storage); repeats of one backend give its run-to-run spread. The runs must share the
// workload, accelerator type and count and the dataset's shape; other settings that differ
// are warned about.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/report_set.hpp"
#include "report/text_table.hpp"

namespace dlsize::report {

inline constexpr const char* kCompareSchema = "dlsize.compare/1";

// Compares reports (at least two). Throws usage_error naming the files when they are not
// comparable (another workload, accelerator type or count, another dataset shape) or are not
// dlsize reports. Returns {"schema", "backends": [...], "metrics": [...], "warnings": [...]}:
// per backend the median of each metric over its runs and its spread; per metric the delta of
// every backend against the first in percent, and whether it exceeds the spread of both.
nlohmann::json compare_reports(const std::vector<loaded_report>& reports);

// The executive summary: per accelerator count, which backend wins on samples/s and by how
// much (Welch's interval on log samples/s, "not enough runs" below 3), and what was left out.
std::string compare_summary(const nlohmann::json& comparison);
// The side-by-side table: a row per metric, a column per backend.
text_table compare_table(const nlohmann::json& comparison);
// The comparison as Markdown, and as one self-contained HTML page with bar charts.
std::string compare_markdown(const nlohmann::json& comparison);
std::string compare_html(const nlohmann::json& comparison);

} // namespace dlsize::report
