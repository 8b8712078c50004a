#pragma once
// A report given to a command that reads reports (size, compare, export, bench --replay),
// checked before anything reads it: a file of another kind dlsize writes is named as such ("this
// is a dlsize dataset index, not a bench report"), a JSON-lines index included, instead of the
// JSON parser's error; the report must validate against its schema (docs/report.schema.json),
// which also bounds the figures to physical sense (no negative or infinite figure, no rate over
// 10^15 B/s). Every refusal is a usage_error naming the file, the JSON pointer and what was
// expected.
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace dlsize::report {

// The reports a command takes.
enum class report_use {
  bench,              // bench --replay
  bench_or_checkpoint // size, compare, export
};

// A file given to a report command: its JSON, or, when it is JSON lines whose first line is a
// dlsize document (a dataset index), what it is (`lines_kind`, doc null).
struct input_document {
  nlohmann::json doc;
  std::string lines_kind;
};
// Reads `file` under core::read_input_file's bounds; throws usage_error (the parser's, naming the
// file and the place) for a file that is neither JSON nor dlsize's JSON lines.
input_document read_input_document(const std::filesystem::path& file);

// Reads `file` (read_input_document) and checks it (check_report_input). Throws usage_error as
// those do, and for JSON lines, named by their kind.
nlohmann::json read_report_input(const std::filesystem::path& file, report_use use);

// Checks a report's JSON: refuses a document of another dlsize kind or of no dlsize kind, and a
// report its schema refuses (the first problems, each "SOURCE: POINTER: what"). `source` names
// the file.
void check_report_input(const nlohmann::json& doc, const std::string& source, report_use use);

// What a document dlsize writes is, by its "schema" (and a report's "kind"): "a dlsize
// checkpoint report (dlsize.report/1, kind checkpoint)", "a dlsize sizing report (dlsize size
// --out PREFIX: PREFIX.json)"; empty when it names no dlsize schema.
std::string dlsize_kind_of(const nlohmann::json& doc);

// The kind of a JSON-lines file whose first line is a dlsize document (a dataset index), from
// its text; empty when its first line is not one.
std::string json_lines_kind_of(const std::string& text);

} // namespace dlsize::report
