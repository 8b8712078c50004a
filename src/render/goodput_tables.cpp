#include "render/goodput_tables.hpp"

#include <fmt/format.h>

#include "core/units.hpp"
#include "render/answer_render.hpp"
#include "render/human_number.hpp"
#include "render/svg_chart.hpp"

namespace dlsize::render {
namespace {

using analysis::goodput_document;
using analysis::goodput_row_document;

// A line's colour per backend, in the order the chart lists them.
const char* goodput_colour(std::size_t i) {
  static const char* colours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b"};
  return colours[i % 5];
}

std::string percent(double share) {
  return fmt::format("{:.2f} %", 100 * share);
}

std::string accelerators_text(std::uint64_t n) {
  return human(static_cast<double>(n));
}

std::string title_of(const goodput_document& d) {
  return fmt::format("{} on {}", d.workload, d.backend);
}

// The interval cell: Daly's, or the drain's where that sets it.
std::string interval_text(const goodput_row_document& r) {
  if (!r.interval_s)
    return "cannot keep up";
  return human_duration(*r.interval_s) + (r.drain_bound ? " (drain)" : "");
}

std::string needed_text(const goodput_row_document& r) {
  return r.write_bytes_per_s_for_max_loss ? human_rate(*r.write_bytes_per_s_for_max_loss)
                                          : "none: restarts alone exceed it";
}

} // namespace

std::string goodput_verdict(const goodput_document& d) {
  const std::string target = fmt::format("{:g} %", 100 * d.max_loss);
  if (d.holds_max_loss_up_to == 0)
    return fmt::format("misses the {} loss even at 1 accelerator", target);
  if (d.holds_beyond_search)
    return fmt::format("holds the {} loss beyond {} accelerators", target,
                       accelerators_text(d.holds_max_loss_up_to));
  return fmt::format("holds the {} loss up to {} accelerators", target,
                     accelerators_text(d.holds_max_loss_up_to));
}

std::vector<std::string> goodput_summary_lines(const std::vector<goodput_document>& g) {
  std::vector<std::string> out;
  for (const auto& d : g)
    out.push_back(fmt::format("Goodput, {}: {} (MTTF {} per accelerator)", title_of(d),
                              goodput_verdict(d), human_duration(d.mttf_s)));
  return out;
}

std::vector<std::string> goodput_input_lines(const goodput_document& d) {
  std::vector<std::string> out = {
      fmt::format("checkpoint: {} ({})", units::format_bytes_binary(d.checkpoint_bytes),
                  d.checkpoint_source),
      fmt::format("MTTF per accelerator: {} ({})", human_duration(d.mttf_s), d.mttf_source),
      "write: " + d.write.source, "restore: " + d.restore.source,
      fmt::format("restart overhead: {} ({})", human_duration(d.restart_overhead_s),
                  d.restart_overhead_source)};
  if (d.async && d.staging_bytes_per_s)
    out.push_back(fmt::format("asynchronous: training pauses for the copy to host memory at {} "
                              "per accelerator",
                              human_rate(*d.staging_bytes_per_s)));
  return out;
}

text_table goodput_table(const goodput_document& d) {
  text_table t;
  t.header = {"accelerators",
              "system MTTF",
              "checkpoint",
              "restart",
              "interval",
              "checkpoints",
              "rework",
              "restarts",
              "loss",
              "goodput",
              fmt::format("write for {:g} %", 100 * d.max_loss)};
  if (d.async)
    t.header.insert(t.header.begin() + 3, "drain");
  for (const auto& r : d.rows) {
    std::vector<std::string> row = {accelerators_text(r.accelerators),
                                    human_duration(r.system_mttf_s), human_duration(r.pause_s),
                                    human_duration(r.restart_s), interval_text(r)};
    if (d.async)
      row.insert(row.begin() + 3, human_duration(r.drain_s));
    if (r.loss)
      for (const double v :
           {r.loss->checkpoints, r.loss->rework, r.loss->restarts, r.loss->total, *r.goodput})
        row.push_back(percent(v));
    else
      row.insert(row.end(), {"–", "–", "–", "100 %", "0 %"});
    row.push_back(needed_text(r));
    t.rows.push_back(std::move(row));
  }
  return t;
}

std::string goodput_chart(const std::vector<goodput_document>& g) {
  svg_chart c("Time lost to checkpoints, rework and restarts", "accelerators", "loss (%)");
  for (std::size_t i = 0; i < g.size(); ++i) {
    std::vector<xy> line = {{0, 0}};
    for (const auto& p : g[i].curve)
      line.push_back({static_cast<double>(p.accelerators), 100 * p.loss});
    c.line(g[i].backend, line, goodput_colour(i));
  }
  if (!g.empty())
    c.hline(fmt::format("target {:g} %", 100 * g.front().max_loss), 100 * g.front().max_loss,
            "#d62728");
  return c.render();
}

std::string goodput_markdown(const std::vector<goodput_document>& g) {
  if (g.empty())
    return "";
  std::string out = "## Goodput: what failures, checkpoints and restarts cost\n\n";
  for (const auto& d : g) {
    out += fmt::format("### {}\n\n{}.\n\n", title_of(d), goodput_verdict(d));
    for (const auto& l : goodput_input_lines(d))
      out += "- " + l + "\n";
    out += "\n" + markdown_table(goodput_table(d)) + "\n";
    for (const auto& w : d.warnings)
      out += "- warning: " + w + "\n";
    if (!d.warnings.empty())
      out += "\n";
  }
  out += "Assumptions:\n\n";
  for (const auto& a : g.front().assumptions)
    out += "- " + a + "\n";
  return out + "\n";
}

void add_goodput_html(html_page& page, const std::vector<goodput_document>& g) {
  if (g.empty())
    return;
  page.heading(2, "Goodput: what failures, checkpoints and restarts cost");
  page.figure(goodput_chart(g), "The share of the wall time lost to checkpoints, rework and "
                                "restarts at the optimal interval, against the accelerators of "
                                "the job, each backend at its measured write and restore rates.");
  for (const auto& d : g) {
    page.heading(3, title_of(d));
    page.paragraph(goodput_verdict(d) + ".");
    page.list(goodput_input_lines(d));
    page.table(goodput_table(d));
    page.list(d.warnings, "warnings");
  }
  page.list(g.front().assumptions);
}

std::string goodput_terminal(const std::vector<goodput_document>& g) {
  std::string out;
  for (const auto& d : g) {
    out += fmt::format("Goodput, {}: the loss against the accelerators\n", title_of(d));
    for (const auto& l : goodput_input_lines(d))
      out += "  " + l + "\n";
    out += aligned_table(goodput_table(d), "  ");
    for (const auto& w : d.warnings)
      out += "  warning: " + w + "\n";
  }
  return out;
}

std::string goodput_text(const goodput_document& d) {
  std::string out = fmt::format("{} goodput: {}\n", d.workload, goodput_verdict(d));
  for (const auto& l : goodput_input_lines(d))
    out += "  " + l + "\n";
  if (const goodput_row_document* r = d.planned()) {
    out += fmt::format("  {} accelerators: the job fails every {}; a checkpoint pauses it {}, a "
                       "restart takes {}\n",
                       accelerators_text(r->accelerators), human_duration(r->system_mttf_s),
                       human_duration(r->pause_s), human_duration(r->restart_s));
    if (r->loss)
      out += fmt::format("  interval          every {} (Daly; Young {})\n  loss              {} "
                         "(checkpoints {}, rework {}, restarts {}): goodput {}\n",
                         interval_text(*r), human_duration(r->young_s), percent(r->loss->total),
                         percent(r->loss->checkpoints), percent(r->loss->rework),
                         percent(r->loss->restarts), percent(*r->goodput));
    else
      out += fmt::format("  checkpoints cannot keep up: a checkpoint takes 2 x the system MTTF "
                         "or more\n");
    out += fmt::format("  for {:g} % loss      write {}\n", 100 * d.max_loss, needed_text(*r));
  }
  return out + aligned_table(goodput_table(d), "  ");
}

} // namespace dlsize::render
