// Unit tests for src/report/report_input: a report command's input named by its kind, and
// checked against the report's schema before anything reads it.
#include <fstream>
#include <string>

#include <catch2/catch.hpp>

#include "report/report_input.hpp"
#include "test_support.hpp"

using namespace dlsize::report;
using dlsize::test::usage_error_message;
using nlohmann::json;

TEST_CASE("a document dlsize writes is named by its kind", "[report_input]") {
  CHECK(dlsize_kind_of(R"({"schema": "dlsize.report/1", "kind": "checkpoint"})"_json) ==
        "a dlsize checkpoint report (dlsize.report/1, kind checkpoint)");
  CHECK(dlsize_kind_of(R"({"schema": "dlsize.report/1", "kind": "bench", "partial": true})"_json) ==
        "a dlsize partial report (dlsize.report/1, kind bench)");
  CHECK_THAT(dlsize_kind_of(R"({"schema": "dlsize.sizing/1"})"_json),
             Catch::StartsWith("a dlsize sizing report"));
  CHECK(dlsize_kind_of(R"({"schema": "dlsize.future/9"})"_json) ==
        "a dlsize document (dlsize.future/9)");
  CHECK(dlsize_kind_of(R"({"name": "resnet50"})"_json).empty());
  CHECK(dlsize_kind_of(json::array()).empty());
  // JSON lines: the first line says what the file is.
  CHECK_THAT(json_lines_kind_of("{\"schema\": \"dlsize.index/1\"}\n{\"path\": \"a\"}\n"),
             Catch::StartsWith("a dlsize dataset index") && Catch::EndsWith(", JSON lines"));
  CHECK(json_lines_kind_of("{\"a\": 1}\n{\"b\": 2}\n").empty());
  CHECK(json_lines_kind_of("{\"schema\": \"dlsize.index/1\"}").empty()); // one line: not lines
}

TEST_CASE("a report command refuses another kind and a report its schema refuses",
          "[report_input]") {
  const auto refused = [](const json& doc, report_use use) {
    return usage_error_message([&] { check_report_input(doc, "r.json", use); });
  };
  CHECK(refused(R"({"schema": "dlsize.report/1", "kind": "checkpoint"})"_json, report_use::bench) ==
        "r.json: this is a dlsize checkpoint report (dlsize.report/1, kind checkpoint), not a "
        "bench report. valid: a bench report (schema dlsize.report/1) as dlsize bench writes it");
  CHECK_THAT(refused(R"({"summary": {}})"_json, report_use::bench_or_checkpoint),
             Catch::StartsWith("r.json: not a bench or checkpoint report: it names no dlsize "
                               "schema"));
  CHECK_THAT(refused(R"({"schema": "dlsize.report/1", "kind": "bench"})"_json,
                     report_use::bench_or_checkpoint),
             Catch::StartsWith("r.json: /: required field") &&
                 Catch::Contains("dlsize validate r.json lists every problem"));

  dlsize::test::temp_dir dir;
  const auto ix = dir.path / "ix.json";
  std::ofstream(ix) << "{\"schema\": \"dlsize.index/1\", \"dir\": \"d\"}\n{\"path\": \"a\"}\n";
  CHECK_THAT(usage_error_message([&] { read_report_input(ix, report_use::bench); }),
             Catch::Contains("ix.json: this is a dlsize dataset index") &&
                 Catch::Contains("JSON lines, not a bench report"));
  const auto cut = dir.path / "cut.json";
  std::ofstream(cut) << "{\"schema\": ";
  CHECK_THAT(usage_error_message([&] { read_report_input(cut, report_use::bench); }),
             !Catch::Contains("this is"));
}
