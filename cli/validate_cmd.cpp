// dlsize validate: checks dlsize JSON documents (reports, comparisons, sizing reports, plans,
// sweep indexes, calibrations) against the JSON Schema of their kind, compiled into dlsize.
#include <cstdio>

#include <fmt/format.h>

#include "commands.hpp"
#include "core/error.hpp"
#include "core/json_input.hpp"
#include "report/schemas.hpp"

namespace dlsize::cli {
namespace {

struct validate_cli {
  std::vector<std::string> files;
  bool quiet = false;
};

// 0 valid, 1 invalid, 2 unreadable or of no known kind; the problems on stderr.
int validate_one(const std::string& file, bool quiet) {
  nlohmann::json doc;
  try {
    doc = core::read_json_file(file, core::kReportJson);
  } catch (const usage_error& e) {
    std::fprintf(stderr, "%s: cannot validate: %s\n", file.c_str(), e.what());
    return 2;
  }
  const std::string kind =
      doc.is_object() && doc.contains("schema") && doc["schema"].is_string() ? doc["schema"] : "";
  const json_schema* schema = report::schema_for(kind);
  if (!schema) {
    std::fprintf(stderr,
                 "%s: cannot validate: %s. valid: a document whose \"schema\" is one of %s\n",
                 file.c_str(),
                 kind.empty() ? "no \"schema\" field" : ("unknown schema '" + kind + "'").c_str(),
                 fmt::format("{}", fmt::join(report::schema_kinds(), ", ")).c_str());
    return 2;
  }
  const auto problems = schema->validate(doc);
  for (const auto& p : problems)
    std::fprintf(stderr, "%s: %s: %s\n", file.c_str(), p.path.empty() ? "/" : p.path.c_str(),
                 p.message.c_str());
  if (!problems.empty()) {
    std::printf("%s: invalid (%s)\n", file.c_str(), kind.c_str());
    return 1;
  }
  if (!quiet)
    std::printf("%s: valid (%s)\n", file.c_str(), kind.c_str());
  return 0;
}

int run_validate(const validate_cli& o) {
  int rc = 0;
  for (const auto& f : o.files) {
    const int r = validate_one(f, o.quiet);
    rc = r == 2 || rc == 2 ? 2 : std::max(rc, r);
  }
  return rc;
}

} // namespace

void setup_validate(CLI::App& app, cli_context& ctx) {
  auto o = std::make_shared<validate_cli>();
  auto* sub = app.add_subcommand(
      "validate", "Check dlsize JSON files against the schema their \"schema\" field names "
                  "(exit 0 valid, 1 invalid, 2 unreadable or unknown)");
  sub->add_option("files", o->files,
                  "Reports, comparisons, sizing reports, plans, sweep "
                  "indexes (index.json) or calibrations")
      ->required()
      ->expected(1, -1);
  sub->add_flag("--quiet", o->quiet, "Say nothing about valid files");
  sub->callback([o, &ctx] { ctx.exit_code = run_validate(*o); });
}

} // namespace dlsize::cli
