#include "render/compare_render.hpp"

#include <cmath>

#include <fmt/format.h>

#include "render/answer_render.hpp"
#include "render/goodput_tables.hpp"
#include "render/human_number.hpp"
#include "render/point_validity_text.hpp"
#include "render/text_table.hpp"
#include "report/rules_edition.hpp"

namespace dlsize::render {

using analysis::compare_backend;
using analysis::compare_document;
using analysis::compare_section;

double median_samples_per_s(const compare_backend& b) {
  const auto* m = b.metric("samples_per_s");
  return m ? m->median : std::nan("");
}

namespace {

// Per other backend, against the first on samples/s: a winner only where the 95 % interval of
// the ratio excludes 1; "no difference" where it spans 1; not judged without an interval.
// strong: the winner's name in Markdown bold.
std::vector<std::string> verdict_lines(const compare_section& sec, bool strong) {
  const auto& bs = sec.backends;
  const auto& vs = sec.samples_per_s_against_first;
  const auto name = [&](const compare_backend& b) {
    return strong ? "**" + b.backend + "**" : b.backend;
  };
  std::vector<std::string> out;
  for (std::size_t i = 1; i < bs.size() && i < vs.size(); ++i) {
    const auto& a = bs[0];
    const auto& b = bs[i];
    const auto& r = vs[i].ratio;
    std::string verdict;
    if (!r)
      verdict = fmt::format("not judged: {} against {}: {}", b.backend, a.backend, vs[i].text);
    else if (!r->excludes_one())
      verdict =
          fmt::format("no difference between {} and {}: {}", a.backend, b.backend, vs[i].text);
    else if (r->low > 1)
      verdict = fmt::format("{} is faster than {}: {}", name(b), a.backend, vs[i].text);
    else
      verdict = fmt::format("{} is faster than {}: {:.3g}× (95 % CI {:.3g} to {:.3g})", name(a),
                            b.backend, 1 / r->ratio, 1 / r->high, 1 / r->low);
    out.push_back(fmt::format("{} accelerator{}: {} ({} {}, {} {} samples/s)", sec.accelerators,
                              sec.accelerators == 1 ? "" : "s", verdict, a.backend,
                              render::human(median_samples_per_s(a)), b.backend,
                              render::human(median_samples_per_s(b))));
  }
  return out;
}

// A backend's median of one metric, in its unit, with its spread, and its delta against the
// first backend's.
std::string metric_cell(const analysis::compare_metric_row& row, const compare_backend& b,
                        std::size_t i) {
  const auto* v = b.metric(row.metric);
  if (!v)
    return "–";
  const double med = v->median;
  std::string cell = row.unit == "bytes/s"
                         ? fmt::format("{} MB/s ({} MiB/s)", render::human(med / 1e6),
                                       render::human(med / 1048576.0))
                     : row.unit == "s" ? fmt::format("{} ms", render::human(med * 1e3))
                     : row.metric == "accelerator_utilization" ? render::au_text(med)
                                                               : render::human(med);
  if (v->spread)
    cell += fmt::format(" ±{:.1f} %", 50 * *v->spread);
  if (v->synthetic)
    cell += " (synthetic: --max-read-rate)";
  const auto& d = row.against_first[i];
  if (i > 0 && d) {
    cell += fmt::format(", {:+.1f} %", 100 * d->delta);
    if (d->verdict != analysis::delta_verdict::not_known)
      cell += fmt::format(" ({})", core::name_of(d->verdict));
  }
  return cell;
}

// "1 of 2 points qualify as MLPerf Storage v3.0 runs: why in the appendix."
std::string qualifying_of(const compare_document& c) {
  std::size_t points = 0, qualifying = 0;
  std::string edition = "v2";
  for (const auto& sec : c.sections)
    for (const auto& b : sec.backends) {
      ++points;
      qualifying += b.mlperf_validity.qualifies() ? 1 : 0;
      edition = rules_edition_of(b.mlperf_validity);
    }
  return qualifying_summary(qualifying, points, edition) + ".";
}

} // namespace

std::vector<std::string> compare_verdicts(const compare_document& c, bool markdown) {
  std::vector<std::string> out;
  for (const auto& sec : c.sections)
    for (auto& l : verdict_lines(sec, markdown))
      out.push_back(std::move(l));
  return out;
}

std::string compare_answer_markdown(const compare_document& c) {
  if (!c.sizing)
    return c.sizing_note.empty() ? "" : "No sizing answer: " + c.sizing_note + ".\n\n";
  std::string out = "## The answer\n\n";
  for (const auto& a : c.sizing->answers)
    out += answer_markdown(a, c.sizing->requirements.at(a.requirement));
  return out;
}

std::string compare_terminal(const compare_document& c) {
  std::string out;
  if (c.sizing)
    for (const auto& a : c.sizing->answers)
      out += answer_terminal(a, c.sizing->requirements.at(a.requirement)) + "\n";
  else if (!c.sizing_note.empty())
    out += "No sizing answer: " + c.sizing_note + ".\n";
  for (const auto& l : compare_verdicts(c, false))
    out += "- " + l + "\n";
  for (const auto& l : goodput_summary_lines(c.goodput))
    out += "- " + l + "\n";
  if (!c.sections.empty())
    out += "- " + qualifying_of(c) + "\n";
  for (const auto& l : c.left_out)
    out += fmt::format("- left out: {} ({})\n", l.file, l.reason);
  return out;
}

std::string compare_summary(const compare_document& c) {
  std::string out = "## Samples/s, backend against backend\n\n";
  for (const auto& l : compare_verdicts(c, true))
    out += "- " + l + "\n";
  if (!c.sections.empty())
    out += "- " + qualifying_of(c) + "\n";
  for (const auto& l : c.left_out)
    out += fmt::format("- left out: {} ({})\n", l.file, l.reason);
  return out + "\n";
}

text_table compare_validity_table(const compare_document& c) {
  text_table t{
      {"accelerators", "backend", "MLPerf Storage", "runs counted", "warm-up", "samples/s spread"},
      {}};
  for (const auto& sec : c.sections)
    for (const auto& b : sec.backends) {
      const auto& v = b.mlperf_validity;
      t.rows.push_back({fmt::format("{}", sec.accelerators), b.backend, point_validity_cell(v),
                        fmt::format("{}", v.counted.size()), v.warm_up.value_or("–"),
                        std::isfinite(v.spread) ? fmt::format("{:.1f} %", 100 * v.spread) : "–"});
    }
  return t;
}

std::string compare_validity_markdown(const compare_document& c) {
  std::string out = "## Appendix: MLPerf Storage validity per point\n\n" +
                    markdown_table(compare_validity_table(c)) + "\n";
  for (const auto& sec : c.sections)
    for (const auto& b : sec.backends) {
      out += fmt::format("- {} accelerators, {}:\n", sec.accelerators, b.backend);
      for (const auto& l : point_validity_lines(b.mlperf_validity))
        out += "  - " + l + "\n";
    }
  return out + "\n";
}

text_table compare_table(const compare_section& s) {
  text_table t;
  t.header.push_back("metric");
  for (const auto& b : s.backends)
    t.header.push_back(fmt::format("{} ({} runs)", b.backend, b.runs()));
  for (const auto& row : s.metrics) {
    std::vector<std::string> cells = {fmt::format("{} ({})", row.metric, row.unit)};
    for (std::size_t i = 0; i < s.backends.size(); ++i)
      cells.push_back(metric_cell(row, s.backends[i], i));
    t.rows.push_back(cells);
  }
  std::vector<std::string> pass = {"AU pass"};
  for (const auto& b : s.backends)
    pass.push_back(fmt::format("{} of {} runs", b.au_passes, b.runs()));
  t.rows.push_back(pass);
  return t;
}

text_table compare_table(const compare_document& c) {
  return compare_table(c.head());
}

std::string compare_markdown(const compare_document& c) {
  if (c.sections.empty()) {
    std::string out = fmt::format("# {}: checkpoints, backend against backend\n\n", c.workload);
    for (const auto& l : goodput_summary_lines(c.goodput))
      out += "- " + l + "\n";
    out += "\n" + goodput_markdown(c.goodput);
    for (const auto& w : c.warnings)
      out += fmt::format("- warning: {}\n", w);
    return out;
  }
  const compare_section& head = c.head();
  std::string out = fmt::format("# {} on {} × {}: backend comparison\n\n", c.workload,
                                head.accelerators, c.accelerator);
  out += compare_answer_markdown(c);
  out += compare_summary(c) + fmt::format("Dataset: {}.\n\n", c.dataset);
  out += goodput_markdown(c.goodput);
  for (const auto& sec : c.sections)
    out += fmt::format("## {} accelerators\n\n", sec.accelerators) +
           markdown_table(compare_table(sec)) + "\n";
  out += compare_validity_markdown(c);
  for (const auto& b : head.backends)
    out += fmt::format("- {}: AU pass in {} of {} runs; reports: {}\n", b.backend, b.au_passes,
                       b.runs(), fmt::join(b.reports, ", "));
  for (const auto& w : c.warnings)
    out += fmt::format("- warning: {}\n", w);
  return out;
}

} // namespace dlsize::render
