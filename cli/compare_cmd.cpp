// dlsize compare: the same training load on two or more storage backends, side by side.
#include <cstdio>

#include <fmt/format.h>

#include "analysis/compare.hpp"
#include "analysis/report_set.hpp"
#include "analysis/report_shape.hpp"
#include "analysis/sizing_rules.hpp"
#include "commands.hpp"
#include "core/defaults.hpp"
#include "core/error.hpp"
#include "core/output_file.hpp"
#include "render/compare_render.hpp"
#include "report/report_io.hpp"
#include "report/rules_edition.hpp"
#include "sizing_options.hpp"

namespace dlsize::cli {
namespace {

struct compare_cli {
  std::vector<std::string> reports;
  std::string out;
  std::string markdown;
  std::string html;
  std::string rules = core::defaults::rules_text;
  analysis::size_options sizing; // the target cluster and prices of the answer
  const CLI::App* cmd = nullptr;
};

int run_compare(const compare_cli& o, const cli_context& ctx) {
  auto given = [&](const char* opt) { return o.cmd->get_option(opt)->count() > 0; };
  const auto rules = report::parse_rules_edition(o.rules, "--rules");
  auto out = reserve_if_given(given("--out"), o.out, "--out");
  auto markdown = reserve_if_given(given("--markdown"), o.markdown, "--markdown");
  auto html = reserve_if_given(given("--html"), o.html, "--html");
  const auto inputs = analysis::load_reports(o.reports);
  analysis::sizing_request req = analysis::sizing_request_of(o.sizing);
  req.rules = rules;
  req.prices = analysis::prices_of(o.sizing, o.reports);
  analysis::compare_document c = analysis::reading_reports(
      inputs.reports, [&] { return analysis::compare_reports(inputs.reports, rules); });
  analysis::reading_reports(inputs.reports, [&] {
    analysis::add_sizing(c, inputs, req, report::command_line_json(ctx.argc, ctx.argv));
    return 0;
  });
  const std::string md =
      analysis::reading_reports(inputs.reports, [&] { return render::compare_markdown(c); });
  // With a file to read the whole page in, the terminal gets the answer and the verdicts only.
  std::fputs((markdown || html ? render::compare_terminal(c) : md).c_str(), stdout);
  bool fell_back = commit_output(out, analysis::to_json(c).dump(2) + "\n", "comparison");
  fell_back |= commit_output(markdown, md, "markdown");
  if (html)
    fell_back |= commit_output(html, render::compare_html(c), "html");
  return fell_back ? 1 : 0;
}

} // namespace

void setup_compare(CLI::App& app, cli_context& ctx) {
  auto o = std::make_shared<compare_cli>();
  auto* sub = app.add_subcommand(
      "compare", "Compare bench reports of one training load on different storage backends");
  sub->add_option("reports", o->reports,
                  "Two or more reports, or folders of them (repeats of one backend give its "
                  "run-to-run spread)")
      ->required()
      ->expected(1, -1);
  sub->add_option("--out", o->out, "JSON file to write (dlsize.compare/1; must not exist)");
  sub->add_option("--rules", o->rules, report::kRulesHelp)->capture_default_str();
  sub->add_option("--markdown", o->markdown, "Markdown file to write (must not exist)");
  sub->add_option("--html", o->html,
                  "Self-contained HTML file with charts to write (must not exist)");
  add_sizing_options(sub, o->sizing);
  sub->callback([o, sub, &ctx] {
    o->cmd = sub;
    ctx.exit_code = run_compare(*o, ctx);
  });
}

} // namespace dlsize::cli
