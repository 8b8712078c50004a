#include <fmt/format.h>

#include "render/compare_render.hpp"
#include "render/html_page.hpp"
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
  std::vector<std::string> labels, legend;
  for (std::size_t i = 0; i < c["backends"].size(); ++i) {
    labels.push_back(fmt::format("backend {}", i + 1));
    legend.push_back(fmt::format("backend {}: {}; reports: {}", i + 1,
                                 c["backends"][i]["backend"].get<std::string>(),
                                 fmt::join(c["backends"][i]["reports"], ", ")));
  }
  page.list(legend);
  auto bars = [&](const char* metric, const char* title, const char* unit, double scale) {
    std::vector<double> v;
    for (const auto& b : c["backends"]) {
      const auto& m = b["metrics"][metric];
      v.push_back(m.is_null() ? 0.0 : m["median"].get<double>() * scale);
    }
    page.figure(svg_bar_chart(title, unit, labels, v),
                fmt::format("{}: median per backend.", title));
  };
  bars("samples_per_s", "Samples/s", "samples/s", 1);
  bars("accelerator_utilization", "Accelerator utilization", "AU", 1);
  bars("read_bytes_per_s", "Read bandwidth", "MB/s", 1e-6);
  page.table(compare_table(c));
  page.list(c["warnings"], "warnings");
  return page.render();
}

} // namespace dlsize::render
