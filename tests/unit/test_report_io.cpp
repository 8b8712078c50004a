// Unit tests for src/report/report_io.hpp: the report header and writing a report to disk.
#include <cstdlib>
#include <filesystem>
#include <string>

#include <catch2/catch.hpp>

#include "test_support.hpp"
#include <nlohmann/json.hpp>

#include "core/atomic_file.hpp"
#include "dlsize/build_config.hpp"
#include "report/bench_report.hpp"
#include "report/report_io.hpp"

namespace {

namespace fs = std::filesystem;
using Catch::Matchers::Contains;
using dlsize::test::usage_error_message;

using dlsize::test::temp_dir;

nlohmann::json sample_report() {
  const char* argv[] = {"dlsize",  "bench",         "--dataset",
                        "/data/x", "--accelerator", "emulated:h100"};
  auto r = dlsize::report::new_bench_report(dlsize::report::command_line_json(6, argv)).to_json();
  r["results"] = {{"accelerator_utilization", 0.9312345678901234},
                  {"samples_per_s", 12345.5},
                  {"read_bytes", 18446744073709551615ull},
                  {"epochs", nlohmann::json::array({{{"epoch", 0}, {"wall_s", nullptr}}})},
                  {"note", "unicode µs and \"quotes\""}};
  return r;
}

std::size_t entries_in(const fs::path& dir) {
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir))
    ++n;
  return n;
}

} // namespace

TEST_CASE("a new report names the schema, kind, tool version and command line", "[report]") {
  const nlohmann::json cmdline = {"dlsize", "bench", "--dataset", "/data/x"};
  const auto h = dlsize::report::new_bench_report(cmdline).to_json();
  CHECK(h.at("schema") == "dlsize.report/1");
  CHECK(h.at("schema") == dlsize::report::kReportSchema);
  CHECK(h.at("kind") == "bench");
  CHECK(h.at("tool").at("name") == "dlsize");
  CHECK(h.at("tool").at("version") == DLSIZE_VERSION);
  CHECK(h.at("command_line") == cmdline);
  // created_at is ISO 8601 UTC: 2024-01-02T03:04:05Z.
  const auto created = h.at("created_at").get<std::string>();
  CHECK(created.size() == 20);
  CHECK(created.back() == 'Z');
  CHECK(created[10] == 'T');
}

TEST_CASE("command_line_json keeps every argument as given, in order", "[report]") {
  const char* argv[] = {"dlsize", "bench", "--note", "two words"};
  const auto j = dlsize::report::command_line_json(4, argv);
  REQUIRE(j.is_array());
  CHECK(j == nlohmann::json({"dlsize", "bench", "--note", "two words"}));
}

TEST_CASE("write_report writes JSON that reads back equal", "[report]") {
  const temp_dir dir;
  const auto path = dir.path / "report.json";
  const auto report = sample_report();
  dlsize::report::write_report(path, report);
  const std::string text = dlsize::read_text_file(path);
  CHECK(text.back() == '\n');
  CHECK(nlohmann::json::parse(text) == report);
  // Only the report is left: no temporary file beside it.
  CHECK(entries_in(dir.path) == 1);
}

TEST_CASE("write_report never overwrites an existing file and leaves it intact", "[report]") {
  const temp_dir dir;
  const auto path = dir.path / "report.json";
  const auto first = sample_report();
  dlsize::report::write_report(path, first);
  const std::string before = dlsize::read_text_file(path);

  auto second = sample_report();
  second["kind"] = "train";
  const auto msg = usage_error_message([&] { dlsize::report::write_report(path, second); });
  CHECK_THAT(msg, Contains(path.string()));
  CHECK_THAT(msg, Contains("never overwrites"));
  CHECK(dlsize::read_text_file(path) == before);
  CHECK(nlohmann::json::parse(before) == first);
  CHECK(entries_in(dir.path) == 1); // the failed write left no temporary file
}

TEST_CASE("write_report into a missing folder fails without creating it", "[report]") {
  const temp_dir dir;
  const auto path = dir.path / "no-such-folder" / "report.json";
  CHECK_THROWS(dlsize::report::write_report(path, sample_report()));
  CHECK_FALSE(fs::exists(path.parent_path()));
}
