#pragma once
// The tables and sentences of a sizing report, made once from its typed document and shown by
// both the Markdown and the HTML renderer.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "analysis/sizing_document.hpp"
#include "render/text_table.hpp"

namespace dlsize::render {

// "resnet50 on h100, dlsize-data/x (ext4), capped at 200.0 MB/s, direct I/O, 1.07 GB dataset"
std::string series_title(const analysis::sizing_series& series);
// Per accelerator count: runs, bandwidth, samples/s in total and per accelerator, efficiency,
// AU (passes), hit ratio, the MLPerf Storage verdict on the point.
text_table measured_table(const analysis::sizing_series& series);
// Scale-up against scale-out at equal accelerator counts; no rows when no count was measured on
// two layouts.
text_table layout_table(const analysis::sizing_series& series);
// Every run: its count, bandwidth, fitted value and residual, AU, seed, file.
text_table runs_table(const analysis::sizing_series& series);
// The fit, the knee test, the ceiling and the most accelerators at the threshold, one line each.
text_table model_table(const analysis::sizing_series& series);
// Per target and growth factor: reads, h, storage requirement with interval, provision,
// whether the backend holds it, the expected AU, flags (projection_notes says them in full).
text_table projection_table(const analysis::sizing_series& series);
// The projections' warnings, each once, in the order they first appear.
std::vector<std::string> projection_notes(const analysis::sizing_series& series);
// An object store's series: each target's bandwidth as GET/s and the GETs in flight; no rows for
// a series of files.
text_table object_table(const analysis::sizing_series& series);
// An object store's series (its objects): the GETs measured, those each target needs, and which
// limit bound the runs; none for a series of files.
std::vector<std::string> object_lines(const analysis::sizing_series& series);
// The same for a page beside object_table: what the runs measured and which limit bound them.
std::vector<std::string> object_notes(const analysis::sizing_series& series);
// The first screen's lines beside the answers: how many points (series × accelerator count)
// qualify as MLPerf Storage runs, the detail left to the appendix.
std::vector<std::string> summary_lines(const analysis::sizing_document& sizing);
// The appendix: per series and point, the MLPerf Storage verdict and every rule's line.
struct validity_appendix_entry {
  std::string point; // "vm-disk, 8 accelerators: INVALID"
  std::vector<std::string> lines;
};
std::vector<validity_appendix_entry> validity_appendix(const analysis::sizing_document& sizing);
// The options and assumptions of the report, as sentences.
std::vector<std::string> assumption_lines(const analysis::sizing_document& sizing);

// Formatting shared by the renderers: "–" for a figure that is not there (NaN or none); a
// median and range as "median (min–max)" (MB/s when rate, a percentage when au); an interval;
// bytes/s in MB/s; bytes/s in MB/s and MiB/s; a number in a format.
std::string median_range(const analysis::value_stats& stats, bool rate, bool au = false);
std::string interval_text(const std::optional<std::pair<double, double>>& iv, bool rate);
std::string mb(double v, const char* format);
std::string mb(const std::optional<double>& v, const char* format);
std::string rate_text(double v);
std::string rate_text(const std::optional<double>& v);
std::string number_text(double v, const char* format = "{:.3g}");
template <typename T> std::string number_text(const std::optional<T>& v, const char* format) {
  return v ? number_text(static_cast<double>(*v), format) : "–";
}

} // namespace dlsize::render
