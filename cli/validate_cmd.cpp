// dlsize validate: checks every document dlsize writes (reports, comparisons, sizing reports,
// plans, sweep indexes, calibrations, workload profiles, dataset and checkpoint manifests,
// dataset indexes and their resume states, journals) against the JSON Schema of its kind,
// compiled into dlsize; JSON lines line by line.
#include <cstdio>

#include <fmt/format.h>

#include "commands.hpp"
#include "core/error.hpp"
#include "core/json_input.hpp"
#include "report/report_input.hpp"
#include "report/schemas.hpp"

namespace dlsize::cli {
namespace {

struct validate_cli {
  std::vector<std::string> files;
  bool quiet = false;
};

// The schema of a document's "schema", or nullptr after saying on stderr that there is none.
const json_schema* schema_of(const std::string& file, const nlohmann::json& doc,
                             std::string& kind) {
  kind =
      doc.is_object() && doc.contains("schema") && doc["schema"].is_string() ? doc["schema"] : "";
  const json_schema* schema = report::schema_for(kind);
  if (!schema)
    std::fprintf(stderr,
                 "%s: cannot validate: %s. valid: a document whose \"schema\" is one of %s\n",
                 file.c_str(),
                 kind.empty() ? "no \"schema\" field" : ("unknown schema '" + kind + "'").c_str(),
                 fmt::format("{}", fmt::join(report::schema_kinds(), ", ")).c_str());
  return schema;
}

// Prints the problems (each prefixed, "line 3: " for a line of JSON lines); true when none.
bool say_problems(const std::string& file, const std::string& prefix,
                  const std::vector<schema_problem>& problems) {
  for (const auto& p : problems)
    std::fprintf(stderr, "%s: %s%s: %s\n", file.c_str(), prefix.c_str(),
                 p.path.empty() ? "/" : p.path.c_str(), p.message.c_str());
  return problems.empty();
}

// A JSON-lines document (a dataset index, an index's resume state): the first line by its
// schema, every further line by the schema's $defs/line. 0 valid, 1 invalid, 2 of no known kind.
int validate_lines(const std::string& file, std::string_view text, bool quiet, std::string& kind) {
  std::size_t start = 0, number = 0, bad = 0;
  const json_schema* schema = nullptr;
  while (start < text.size() && bad < 20) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    if (line.find_first_not_of(" \t\r") == std::string_view::npos)
      continue;
    const std::string where = fmt::format("line {}: ", ++number);
    nlohmann::json doc;
    try {
      doc = core::parse_json(line, file + ": " + where, core::kReportJson);
    } catch (const usage_error& e) {
      std::fprintf(stderr, "%s\n", e.what());
      ++bad;
      continue;
    }
    if (number == 1 && !(schema = schema_of(file, doc, kind)))
      return 2;
    try {
      bad += say_problems(file, where,
                          number == 1 ? schema->validate(doc)
                                      : schema->validate_at(doc, "#/$defs/line"))
                 ? 0
                 : 1;
    } catch (const run_error&) {
      std::fprintf(stderr,
                   "%s: cannot validate: its first line is a %s document, which is one JSON "
                   "document, not lines\n",
                   file.c_str(), kind.c_str());
      return 2;
    }
  }
  if (bad > 0) {
    std::printf("%s: invalid (%s)\n", file.c_str(), kind.c_str());
    return 1;
  }
  if (!quiet)
    std::printf("%s: valid (%s, %zu lines)\n", file.c_str(), kind.c_str(), number);
  return 0;
}

// 0 valid, 1 invalid, 2 unreadable or of no known kind; the problems on stderr.
int validate_one(const std::string& file, bool quiet) {
  std::string text, kind;
  nlohmann::json doc;
  try {
    text = core::read_input_file(file, core::kReportJson);
    doc = core::parse_json(text, file, core::kReportJson);
  } catch (const usage_error& e) {
    if (!text.empty() && !report::json_lines_kind_of(text).empty())
      return validate_lines(file, text, quiet, kind);
    std::fprintf(stderr, "%s: cannot validate: %s\n", file.c_str(), e.what());
    return 2;
  }
  const json_schema* schema = schema_of(file, doc, kind);
  if (!schema)
    return 2;
  if (!say_problems(file, "", schema->validate(doc))) {
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
                  "Any document dlsize writes: reports, comparisons, sizing reports, plans, sweep "
                  "indexes (index.json), calibrations, workload profiles, manifests, dataset "
                  "indexes (JSON lines)")
      ->required()
      ->expected(1, -1);
  sub->add_flag("--quiet", o->quiet, "Say nothing about valid files");
  sub->callback([o, &ctx] { ctx.exit_code = run_validate(*o); });
}

} // namespace dlsize::cli
