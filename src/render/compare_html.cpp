#include <fmt/format.h>

#include "render/compare_render.hpp"
#include "render/html_page.hpp"
#include "render/point_validity_text.hpp"
#include "render/svg_chart.hpp"

namespace dlsize::render {

std::string compare_html(const analysis::compare_document& c) {
  const analysis::compare_section& head = c.head();
  html_page page(fmt::format("{} on {} × {}: backend comparison", c.workload, head.accelerators,
                             c.accelerator));
  page.paragraph(fmt::format("Made {} by dlsize {}. Dataset: {}. Each cell is the median over a "
                             "backend's runs, ± half its run-to-run spread, and the delta against "
                             "the first backend.",
                             c.created_at, analysis::tool_version(c), c.dataset));
  // Bars carry the backend's label (its --label, else "PATH (FS_TYPE)"); the legend the rest.
  std::vector<std::string> labels, legend;
  for (std::size_t i = 0; i < head.backends.size(); ++i) {
    const auto& b = head.backends[i];
    labels.push_back(b.label.empty() ? fmt::format("backend {}", i + 1) : b.label);
    legend.push_back(fmt::format("{}{}; reports: {}", labels.back(),
                                 b.backend == labels.back() ? "" : ": " + b.backend,
                                 fmt::join(b.reports, ", ")));
  }
  page.list(legend);
  auto bars = [&](const char* metric, const char* title, const char* unit, double scale) {
    std::vector<bar> v;
    for (std::size_t i = 0; i < head.backends.size(); ++i) {
      const auto* m = head.backends[i].metric(metric);
      v.push_back(bar{labels[i], m ? m->median * scale : 0.0});
    }
    page.figure(svg_bar_chart(title, unit, v, std::nullopt),
                fmt::format("{}: median per backend (the table below gives each backend's "
                            "run-to-run spread).",
                            title));
  };
  bars("samples_per_s", "Samples/s", "samples/s", 1);
  bars("accelerator_utilization", "Accelerator utilization", "AU", 1);
  bars("read_bytes_per_s", "Read bandwidth", "MB/s", 1e-6);
  page.table(compare_table(c));
  page.heading(2, "MLPerf Storage validity per point");
  page.table(compare_validity_table(c));
  for (const auto& sec : c.sections)
    for (const auto& b : sec.backends) {
      page.paragraph(fmt::format("{} accelerators, {}:", sec.accelerators, b.backend));
      page.list(point_validity_lines(b.mlperf_validity));
    }
  page.list(c.warnings, "warnings");
  return page.render();
}

} // namespace dlsize::render
