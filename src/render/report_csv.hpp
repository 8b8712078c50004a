#pragma once
// Bench reports as CSV for spreadsheets: one row per report (identity, counts, summary figures),
// units in the header ("read_bytes_per_s [B/s]"), RFC 4180 quoting, empty cells for figures a
// report does not have (a storage-only run has no AU).
#include <string>
#include <vector>

#include "analysis/report_set.hpp"

namespace dlsize::render {

std::string reports_csv(const std::vector<analysis::loaded_report>& reports);

} // namespace dlsize::render
