#pragma once
// The MLPerf Storage verdict on a point (the "mlperf_validity" block of the sizing and comparison
// documents, analysis/point_validity.hpp) as a table cell and as sentences, shared by the
// Markdown, HTML and terminal printers of size and compare.
#include <cstddef>
#include <string>
#include <vector>

#include "analysis/point_validity.hpp"

namespace dlsize::render {

// "VALID", or the verdict and the rules that did not pass: "INVALID (FAIL: 5 runs after a
// warm-up)".
std::string point_validity_cell(const analysis::point_validity& v);
// Every rule, one line each: "FAIL  5 runs after a warm-up: 3 complete runs; … (source: …;
// judged by: …)".
std::vector<std::string> point_validity_lines(const analysis::point_validity& v);
// "MLPerf Storage: 1 of 6 points qualify (5 runs after a warm-up, within 5 % of each other,
// each run valid by itself)".
std::string qualifying_line(std::size_t qualifying, std::size_t points, const std::string& edition);
// The first screen's one line: "0 of 12 points qualify as MLPerf Storage v3.0 runs: why in the
// appendix" (or "all 12 points ...").
std::string qualifying_summary(std::size_t qualifying, std::size_t points,
                               const std::string& edition);
// The edition that judged a point ("v1", "v2", "v3").
std::string rules_edition_of(const analysis::point_validity& v);

} // namespace dlsize::render
