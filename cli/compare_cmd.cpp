// dlsize compare: the same training load on two or more storage backends, side by side.
#include <cstdio>

#include <fmt/format.h>

#include "analysis/compare.hpp"
#include "analysis/report_set.hpp"
#include "commands.hpp"
#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "render/compare_render.hpp"
#include "report/report_io.hpp"

namespace dlsize::cli {
namespace {

struct compare_cli {
  std::vector<std::string> reports;
  std::string out;
  std::string markdown;
  std::string html;
};

int run_compare(const compare_cli& o) {
  if (!o.out.empty())
    check_new_output(o.out, "--out");
  if (!o.markdown.empty())
    check_new_output(o.markdown, "--markdown");
  if (!o.html.empty())
    check_new_output(o.html, "--html");
  const nlohmann::json c = analysis::compare_reports(analysis::load_reports(o.reports).reports);
  const std::string md = render::compare_markdown(c);
  std::fputs(md.c_str(), stdout);
  if (!o.out.empty()) {
    report::write_report(o.out, c);
    std::printf("comparison: %s\n", o.out.c_str());
  }
  if (!o.markdown.empty()) {
    write_file_atomic(o.markdown, md);
    std::printf("markdown: %s\n", o.markdown.c_str());
  }
  if (!o.html.empty()) {
    write_file_atomic(o.html, render::compare_html(c));
    std::printf("html: %s\n", o.html.c_str());
  }
  return 0;
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
  sub->add_option("--markdown", o->markdown, "Markdown file to write (must not exist)");
  sub->add_option("--html", o->html,
                  "Self-contained HTML file with charts to write (must not exist)");
  sub->callback([o, &ctx] { ctx.exit_code = run_compare(*o); });
}

} // namespace dlsize::cli
