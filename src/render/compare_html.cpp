#include <fmt/format.h>

#include "render/compare_render.hpp"
#include "render/html_page.hpp"
#include "render/point_validity_text.hpp"
#include "render/svg_chart.hpp"

namespace dlsize::render {

std::string compare_html(const nlohmann::json& c) {
  html_page page(fmt::format("{} on {} × {}: backend comparison", c["workload"].get<std::string>(),
                             c["accelerators"].get<int>(), c["accelerator"].get<std::string>()));
  page.paragraph(fmt::format("Made {} by dlsize {}. Dataset: {}. Each cell is the median over a "
                             "backend's runs, ± half its run-to-run spread, and the delta against "
                             "the first backend.",
                             c["created_at"].get<std::string>(),
                             c["tool"]["version"].get<std::string>(),
                             c["dataset"].get<std::string>()));
  // Bars carry the backend's label (its --label, else "PATH (FS_TYPE)"); the legend the rest.
  std::vector<std::string> labels, legend;
  for (std::size_t i = 0; i < c["backends"].size(); ++i) {
    const auto& b = c["backends"][i];
    const std::string label = b.value("label", "");
    labels.push_back(label.empty() ? fmt::format("backend {}", i + 1) : label);
    const std::string backend = b["backend"].get<std::string>();
    legend.push_back(fmt::format("{}{}; reports: {}", labels.back(),
                                 backend == labels.back() ? "" : ": " + backend,
                                 fmt::join(b["reports"], ", ")));
  }
  page.list(legend);
  auto bars = [&](const char* metric, const char* title, const char* unit, double scale,
                  std::optional<reference_line> threshold = std::nullopt) {
    std::vector<bar> v;
    for (std::size_t i = 0; i < c["backends"].size(); ++i) {
      const auto& m = c["backends"][i]["metrics"][metric];
      bar b{labels[i], m.is_null() ? 0.0 : m["median"].get<double>() * scale};
      if (m.is_object() && m.contains("min") && m["min"].is_number() && m["max"].is_number()) {
        b.low = m["min"].get<double>() * scale;
        b.high = m["max"].get<double>() * scale;
      }
      v.push_back(b);
    }
    page.figure(svg_bar_chart(title, unit, v, threshold),
                fmt::format("{}: median per backend, the runs' range as error bars.", title));
  };
  bars("samples_per_s", "Samples/s", "samples/s", 1);
  std::optional<reference_line> au_line;
  if (c.contains("au_threshold") && c["au_threshold"].is_number())
    au_line = reference_line{fmt::format("AU threshold {:.2f}", c["au_threshold"].get<double>()),
                             c["au_threshold"].get<double>()};
  bars("accelerator_utilization", "Accelerator utilization", "AU", 1, au_line);
  bars("read_bytes_per_s", "Read bandwidth", "MB/s", 1e-6);
  page.table(compare_table(c));
  page.heading(2, "MLPerf Storage validity per point");
  page.table(compare_validity_table(c));
  for (const auto& sec : c.value("by_accelerators", nlohmann::json::array()))
    for (const auto& b : sec["backends"]) {
      page.paragraph(fmt::format("{} accelerators, {}:", sec["accelerators"].get<int>(),
                                 b["backend"].get<std::string>()));
      page.list(point_validity_lines(analysis::point_validity_from_json(b.at("mlperf_validity"))));
    }
  page.list(c["warnings"], "warnings");
  return page.render();
}

} // namespace dlsize::render
