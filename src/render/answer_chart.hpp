#pragma once
// The chart that answers: one per load, every backend on it. Each backend's measured runs (a
// run the client held back is a hollow "≥" triangle: a lower bound), its fit or hinge and its
// knee, in the backend's own colour; the requirement extended to the largest target with its
// 95 % prediction band, and the provision, in greens of their own. Logarithmic axes hold 1 to
// hundreds of accelerators and MB/s to tens of GB/s, and draw no bandwidth below zero.
#include <string>

#include "analysis/sizing_document.hpp"

namespace dlsize::render {

struct answer_figure {
  std::string svg;
  std::string caption; // says what was drawn, and only that
};

answer_figure answer_chart(const analysis::sizing_document& d, const analysis::sizing_answer& a);

// The colour of the i-th backend of a chart (distinct from the requirement's greens and from
// each other for the first eight).
const char* backend_color(std::size_t i);

} // namespace dlsize::render
