// dlsize export: bench reports as one CSV table for spreadsheets.
#include <cstdio>

#include "analysis/report_set.hpp"
#include "analysis/report_shape.hpp"
#include "commands.hpp"
#include "core/error.hpp"
#include "core/output_file.hpp"
#include "render/report_csv.hpp"

namespace dlsize::cli {
namespace {

struct export_cli {
  std::vector<std::string> reports;
  std::string csv;
};

int run_export(const export_cli& o) {
  std::optional<output_file> out;
  if (o.csv != "-")
    out.emplace(o.csv, "--csv");
  const auto inputs = analysis::load_reports(o.reports);
  for (const auto& n : inputs.notes)
    std::fprintf(stderr, "export: note: %s\n", n.c_str());
  const std::string text = analysis::reading_reports(
      inputs.reports, [&] { return render::reports_csv(inputs.reports); });
  if (!out) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
  }
  const output_place where = out->commit(text);
  if (!where.path.empty())
    std::fprintf(stderr, "export: %zu reports to %s\n", inputs.reports.size(), where.path.c_str());
  return where.fell_back ? 1 : 0;
}

} // namespace

void setup_export(CLI::App& app, cli_context& ctx) {
  auto o = std::make_shared<export_cli>();
  auto* sub = app.add_subcommand(
      "export", "Bench reports as a CSV table (one row per report, units in the header)");
  sub->add_option("reports", o->reports, "Reports, folders of them, or sweep folders")
      ->required()
      ->expected(1, -1);
  sub->add_option("--csv", o->csv, "CSV file to write (must not exist), or - for stdout")
      ->required();
  sub->callback([o, &ctx] { ctx.exit_code = run_export(*o); });
}

} // namespace dlsize::cli
