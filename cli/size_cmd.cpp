// dlsize size: bench reports (files, folders, sweep folders) into a sizing report: the fit of
// bandwidth against accelerators, the knee, the ceiling, projections; JSON, Markdown and HTML.
#include <cstdio>

#include <fmt/format.h>

#include "analysis/report_shape.hpp"
#include "analysis/sizing_report.hpp"
#include "analysis/sizing_rules.hpp"
#include "commands.hpp"
#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/output_file.hpp"
#include "render/answer_render.hpp"
#include "render/checkpoint_tables.hpp"
#include "render/goodput_tables.hpp"
#include "render/sizing_render.hpp"
#include "render/sizing_tables.hpp"
#include "report/report_io.hpp"
#include "report/rules_edition.hpp"
#include "sizing_options.hpp"

namespace dlsize::cli {
namespace {

struct size_cli {
  std::vector<std::string> inputs;
  analysis::size_options opt;
};

// The summary on stdout, each series' fit, knee and ceiling, and the warnings on stderr.
void print_sizing(const analysis::sizing_document& z) {
  for (const auto& a : z.answers)
    std::printf("%s\n", render::answer_terminal(a, z.requirements.at(a.requirement)).c_str());
  for (const auto& l : render::summary_lines(z))
    std::printf("%s\n", l.c_str());
  for (const auto& s : z.series) {
    std::printf("%s\n", render::series_title(s).c_str());
    if (s.fit)
      std::printf("  fit        %s per accelerator + %s, R² %.4f (%d runs)\n",
                  render::rate_text(s.fit->line.slope).c_str(),
                  render::rate_text(s.fit->line.intercept).c_str(), s.fit->line.r2,
                  static_cast<int>(s.fit->line.n));
    std::printf("  knee       %s\n", s.knee.reason.c_str());
    const auto& l = s.limits;
    std::printf(
        "  ceiling    %s\n",
        l.ceiling_bytes_per_s
            ? render::rate_text(l.ceiling_bytes_per_s).c_str()
            : ("not reached; at least " + render::rate_text(l.best_measured_bytes_per_s)).c_str());
    for (const auto& line : render::object_lines(s))
      std::printf("%s\n", line.c_str());
    for (const auto& w : s.warnings)
      std::fprintf(stderr, "size: warning: %s\n", w.c_str());
  }
  for (const auto& l : render::checkpoint_summary_lines(z))
    std::printf("%s\n", l.c_str());
  for (const auto& s : z.checkpoint_series)
    for (const auto& w : s.warnings)
      std::fprintf(stderr, "size: warning: %s\n", w.c_str());
  std::fputs(render::goodput_terminal(z.goodput).c_str(), stdout);
  for (const auto& w : z.cache_curves) {
    const auto& c = w.curve;
    std::printf("cache curve %s: %zu runs at %zu distinct f, fit residual RMS %.3f (LRU %.3f, "
                "never-evict %.3f)%s\n",
                w.workload.c_str(), c.points.size(), c.knots.size(), c.fit_residuals().rms,
                c.lru_residuals().rms, c.never_evict_residuals().rms,
                c.usable() ? "" : "; too few f for projections");
  }
  for (const auto& w : z.warnings)
    std::fprintf(stderr, "size: note: %s\n", w.c_str());
}

int run_size(const size_cli& o, const cli_context& ctx) {
  analysis::check_out_prefix(o.opt.out);
  const std::string json_path = o.opt.out + ".json", md_path = o.opt.out + ".md",
                    html_path = o.opt.out + ".html";
  auto out_json = reserve_if_given(true, json_path, "--out");
  auto out_md = reserve_if_given(true, md_path, "--out");
  auto out_html = reserve_if_given(true, html_path, "--out");
  analysis::sizing_request req = analysis::sizing_request_of(o.opt);
  req.prices = analysis::prices_of(o.opt, o.inputs);

  const auto inputs = analysis::load_reports(o.inputs);
  const analysis::sizing_document doc = analysis::reading_reports(inputs.reports, [&] {
    return analysis::make_sizing(inputs, req, report::command_line_json(ctx.argc, ctx.argv));
  });
  print_sizing(doc);
  bool fell_back = commit_output(out_json, to_json(doc).dump(2) + "\n", "sizing");
  fell_back |= commit_output(out_md, render::sizing_markdown(doc), "sizing");
  fell_back |= commit_output(out_html, render::sizing_html(doc), "sizing");
  return fell_back ? 1 : 0;
}

} // namespace

void setup_size(CLI::App& app, cli_context& ctx) {
  auto o = std::make_shared<size_cli>();
  auto* sub = app.add_subcommand("size", "Fit bench reports into a sizing report: bandwidth "
                                         "against accelerators, knee, ceiling, projections");
  sub->add_option("reports", o->inputs, "Bench reports, folders of them, or sweep folders")
      ->required()
      ->expected(1, -1);
  sub->add_option("--out", o->opt.out,
                  "Prefix of the files to write: PREFIX.json (dlsize.sizing/1), PREFIX.md, "
                  "PREFIX.html (none may exist)")
      ->required();
  add_sizing_options(sub, o->opt);
  sub->add_option("--rules", o->opt.rules, report::kRulesHelp)->capture_default_str();
  sub->callback([o, &ctx] { ctx.exit_code = run_size(*o, ctx); });
}

} // namespace dlsize::cli
