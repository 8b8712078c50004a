#pragma once
// A sizing report's measured cache curves (its cache_curves, analysis/cache_sweep): the table,
// sentences and chart that the Markdown and HTML renderers show.
#include <string>
#include <vector>

#include "analysis/sizing_document.hpp"
#include "render/text_table.hpp"

namespace dlsize::render {

// "Cache curve: resnet50"
std::string cache_curve_title(const analysis::sizing_cache_curve& curve);
// Per distinct f: runs, the measured hit ratio (median) and the fit's, the runs' residuals
// against the fit, both models, storage bytes per byte read measured and fitted.
text_table cache_curve_table(const analysis::sizing_cache_curve& curve);
// How it was fitted, the residuals of the fit and of both models, the readahead amplification,
// and whether projections use it.
std::vector<std::string> cache_curve_lines(const analysis::sizing_cache_curve& curve);
// SVG: hit ratio against f, every run as a point, the fit and both models as lines.
std::string cache_curve_chart(const analysis::sizing_cache_curve& curve);

} // namespace dlsize::render
