#pragma once
// `dlsize compare`: storage backends under identical training loads. Reports are grouped by
// backend (the dataset's path and file system, and --max-read-rate when one stands in for a
// slower storage); repeats of one backend give its run-to-run spread. The runs must share the
// workload, accelerator type and count and the dataset's shape; other settings that differ
// are warned about.
#include <string>
#include <vector>

#include "analysis/compare_document.hpp"
#include "analysis/report_set.hpp"
#include "analysis/sizing_report.hpp"
#include "report/rules_edition.hpp"

namespace dlsize::analysis {

inline constexpr const char* kCompareSchema = "dlsize.compare/1";

// Compares reports (at least two). Checkpoint reports are set aside for add_sizing's goodput;
// where there are only checkpoint reports the comparison has no sections and its goodput is
// the comparison. Throws usage_error naming the files when they are not
// comparable (another workload, accelerator type or count, another dataset shape) or are not
// dlsize reports. Returns the comparison per accelerator count: per backend the median of each
// metric over its runs and its spread; per metric the delta of every backend against the first
// in percent, and whether it exceeds the spread of both. Each backend's point is judged by MLPerf
// Storage's rules of `edition` (mlperf_validity).
compare_document compare_reports(const std::vector<loaded_report>& reports,
                                 report::rules_edition edition = report::kDefaultRules);

// The buyer's answer over the comparison's runs, as `size` makes it with req: into
// c.sizing, or c.sizing_note saying why none can be made (no training run to size); and each
// backend's goodput into c.goodput. Throws usage_error where checkpoint reports alone give no
// goodput.
void add_sizing(compare_document& c, const report_inputs& in, const sizing_request& req,
                const nlohmann::json& command_line);

} // namespace dlsize::analysis
