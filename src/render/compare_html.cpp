#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "render/answer_chart.hpp"
#include "render/answer_render.hpp"
#include "render/compare_render.hpp"
#include "render/goodput_tables.hpp"
#include "render/html_page.hpp"
#include "render/point_validity_text.hpp"
#include "render/svg_chart.hpp"

namespace dlsize::render {
namespace {

using analysis::compare_document;

// Each backend's samples/s against the first's at every accelerator count the two share: with
// Welch's 95 % interval where both have 3 runs or more, the ratio of medians alone otherwise;
// against a line at 1 (no difference). None where no count has two backends.
std::optional<answer_figure> ratio_chart(const compare_document& c) {
  if (c.sections.empty() || c.sections.front().backends.empty())
    return std::nullopt;
  const std::string first = c.sections.front().backends.front().backend;
  svg_chart chart(fmt::format("Samples/s against {} at each accelerator count", first),
                  "accelerators", "ratio of samples/s");
  double lo = 1, hi = 1;
  std::vector<std::string> names;
  for (const auto& sec : c.sections)
    for (std::size_t i = 1; i < sec.backends.size(); ++i)
      if (std::find(names.begin(), names.end(), sec.backends[i].backend) == names.end())
        names.push_back(sec.backends[i].backend);
  bool bare = false;
  for (std::size_t k = 0; k < names.size(); ++k) {
    std::vector<xy> mid, low, high, plain;
    for (const auto& sec : c.sections)
      for (std::size_t i = 1; i < sec.backends.size() && i < sec.samples_per_s_against_first.size();
           ++i) {
        if (sec.backends[i].backend != names[k] || sec.backends[0].backend != first)
          continue;
        const double x = static_cast<double>(sec.accelerators);
        if (const auto& r = sec.samples_per_s_against_first[i].ratio) {
          mid.push_back({x, r->ratio});
          low.push_back({x, r->low});
          high.push_back({x, r->high});
          lo = std::min(lo, r->low);
          hi = std::max(hi, r->high);
        } else if (const double q = median_samples_per_s(sec.backends[i]) /
                                    median_samples_per_s(sec.backends[0]);
                   std::isfinite(q)) {
          plain.push_back({x, q});
          lo = std::min(lo, q);
          hi = std::max(hi, q);
        }
      }
    if (!mid.empty())
      chart.intervals(names[k] + " ÷ " + first + " (95 % CI)", mid, low, high,
                      backend_color(k + 1));
    if (!plain.empty())
      chart.points(names[k] + " ÷ " + first + " (medians, no interval)", plain,
                   backend_color(k + 1));
    bare |= !plain.empty();
  }
  if (names.empty())
    return std::nullopt;
  chart.hline("no difference (1.0)", 1.0, "#555555");
  const double pad = std::max(0.02, (hi - lo) * 0.1);
  chart.y_span(std::max(0.0, lo - pad), hi + pad);
  return answer_figure{
      chart.render(),
      fmt::format("Each backend's median samples/s ÷ {}'s at every accelerator count, with "
                  "Welch's 95 % interval (on the logs) where both have 3 runs or more: an "
                  "interval that spans 1.0 is no difference{}.",
                  first,
                  bare ? "; a dot alone is a ratio of medians with too few runs for an interval"
                       : "")};
}

void add_answer(html_page& page, const compare_document& c) {
  if (!c.sizing) {
    if (!c.sizing_note.empty())
      page.paragraph("No sizing answer: " + c.sizing_note + ".");
    return;
  }
  page.heading(2, "The answer");
  for (const auto& a : c.sizing->answers) {
    add_answer_html(page, a, c.sizing->requirements.at(a.requirement));
    const answer_figure chart = answer_chart(*c.sizing, a);
    page.figure(chart.svg, chart.caption);
  }
}

// Checkpoint reports alone: each backend's goodput, its chart, the warnings.
std::string checkpoints_html(const compare_document& c) {
  html_page page(fmt::format("{}: checkpoints, backend against backend", c.workload));
  page.paragraph(fmt::format("Made {} by dlsize {} from checkpoint reports alone.", c.created_at,
                             analysis::tool_version(c)));
  page.list(goodput_summary_lines(c.goodput));
  add_goodput_html(page, c.goodput);
  page.list(c.warnings, "warnings");
  return page.render();
}

} // namespace

std::string compare_html(const compare_document& c) {
  if (c.sections.empty())
    return checkpoints_html(c);
  const analysis::compare_section& head = c.head();
  html_page page(fmt::format("{} on {} × {}: backend comparison", c.workload, head.accelerators,
                             c.accelerator));
  page.paragraph(fmt::format("Made {} by dlsize {}. Dataset: {}. Each cell is the median over a "
                             "backend's runs, ± half its run-to-run spread, and the delta against "
                             "the first backend.",
                             c.created_at, analysis::tool_version(c), c.dataset));
  add_answer(page, c);
  page.heading(2, "Samples/s, backend against backend");
  page.list(compare_verdicts(c, false));
  if (const auto chart = ratio_chart(c))
    page.figure(chart->svg, chart->caption);
  for (const auto& sec : c.sections) {
    page.heading(3, fmt::format("{} accelerators", sec.accelerators));
    page.table(compare_table(sec));
  }
  add_goodput_html(page, c.goodput);
  std::vector<std::string> legend;
  for (const auto& b : head.backends)
    legend.push_back(fmt::format("{}: reports {}", b.backend, fmt::join(b.reports, ", ")));
  page.list(legend);
  page.heading(2, "Appendix: MLPerf Storage validity per point");
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
