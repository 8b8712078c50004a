#pragma once
// The sizing document (dlsize.sizing/1) for people: a Markdown page, and one self-contained
// HTML page with inline SVG charts (bandwidth against accelerators with the fit and its 95 %
// prediction band; AU against accelerators with the threshold; samples/s per accelerator).
#include <string>

#include "analysis/sizing_document.hpp"

namespace dlsize::render {

std::string sizing_markdown(const analysis::sizing_document& sizing);
std::string sizing_html(const analysis::sizing_document& sizing);

} // namespace dlsize::render
