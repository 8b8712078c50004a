#include "report/report_input.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/json_input.hpp"
#include "core/json_schema.hpp"
#include "report/report_io.hpp"
#include "report/schemas.hpp"

namespace dlsize::report {
namespace {

// How many of a report's schema problems a refusal lists (dlsize validate lists them all).
constexpr std::size_t kProblemsShown = 5;

// What the command takes, for messages.
const char* expected(report_use use) {
  return use == report_use::bench ? "a bench report" : "a bench or checkpoint report";
}

} // namespace

std::string dlsize_kind_of(const nlohmann::json& doc) {
  const std::string schema = top_level_text(doc, "schema");
  if (schema == kReportSchema) {
    const std::string kind = top_level_text(doc, "kind");
    if (kind == "checkpoint")
      return fmt::format("a dlsize checkpoint report ({}, kind checkpoint)", schema);
    return fmt::format("a dlsize {}report ({}, kind {})",
                       doc.is_object() && doc.value("partial", false) ? "partial " : "", schema,
                       kind.empty() ? "(none)" : kind);
  }
  if (const json_schema* s = schema_for(schema)) {
    const std::string title = s->title();
    return title.empty() ? fmt::format("a dlsize document ({})", schema) : "a " + title;
  }
  if (schema.rfind("dlsize.", 0) == 0)
    return fmt::format("a dlsize document ({})", schema);
  return "";
}

std::string json_lines_kind_of(const std::string& text) {
  const std::size_t end = text.find('\n');
  if (end == std::string::npos || end + 1 >= text.size())
    return "";
  try {
    const nlohmann::json first =
        core::parse_json(std::string_view(text).substr(0, end), "first line", core::kReportJson);
    const std::string kind = dlsize_kind_of(first);
    return kind.empty() ? "" : kind + ", JSON lines";
  } catch (const usage_error&) {
    return "";
  }
}

void check_report_input(const nlohmann::json& doc, const std::string& source, report_use use) {
  const std::string kind = dlsize_kind_of(doc);
  const bool report = top_level_text(doc, "schema") == kReportSchema;
  const bool checkpoint = report && top_level_text(doc, "kind") == "checkpoint";
  if (!report || (checkpoint && use == report_use::bench))
    throw usage_error(fmt::format(
        "{}: {}. valid: {} (schema {}) as dlsize bench{} writes it", source,
        kind.empty() ? fmt::format("not {}: it names no dlsize schema", expected(use))
                     : fmt::format("this is {}, not {}", kind, expected(use)),
        expected(use), kReportSchema, use == report_use::bench ? "" : " or dlsize checkpoint"));
  const auto problems = schema_for(kReportSchema)->validate(doc, kProblemsShown);
  if (problems.empty())
    return;
  std::string list;
  for (const auto& p : problems)
    list +=
        fmt::format("{}{}: {}", list.empty() ? "" : "; ", p.path.empty() ? "/" : p.path, p.message);
  throw usage_error(fmt::format("{}: {}. valid: a report as docs/report.schema.json describes it "
                                "(dlsize validate {} lists every problem)",
                                source, list, source));
}

input_document read_input_document(const std::filesystem::path& file) {
  const std::string text = core::read_input_file(file, core::kReportJson);
  input_document in;
  try {
    in.doc = core::parse_json(text, file.string(), core::kReportJson);
  } catch (const usage_error&) {
    in.lines_kind = json_lines_kind_of(text);
    if (in.lines_kind.empty())
      throw;
  }
  return in;
}

nlohmann::json read_report_input(const std::filesystem::path& file, report_use use) {
  input_document in = read_input_document(file);
  if (!in.lines_kind.empty())
    throw usage_error(fmt::format("{}: this is {}, not {}. valid: {} (schema {})", file.string(),
                                  in.lines_kind, expected(use), expected(use), kReportSchema));
  check_report_input(in.doc, file.string(), use);
  return std::move(in.doc);
}

} // namespace dlsize::report
