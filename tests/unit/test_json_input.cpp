#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <string>
#include <thread>

#include <catch2/catch.hpp>

#include "core/json_input.hpp"
#include "report/bench_report.hpp"
#include "test_support.hpp"

using Catch::Matchers::Contains;
using namespace dlsize::core;
using namespace dlsize::test;

namespace {

void write(const std::filesystem::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

// Writes text to a pipe in one call, so that a reader that stops early cannot leave the writer
// between two writes (a SIGPIPE).
void write_pipe(const std::filesystem::path& p, const std::string& text) {
  const int fd = ::open(p.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd >= 0) {
    (void)!::write(fd, text.data(), text.size());
    ::close(fd);
  }
}

} // namespace

TEST_CASE("parse_json refuses nesting past the limit without recursing", "[json_input]") {
  const std::string deep = std::string(100000, '[') + std::string(100000, ']');
  const auto msg = usage_error_message([&] { (void)parse_json(deep, "deep.json", kConfigJson); });
  CHECK_THAT(msg, Contains("deep.json: /0/0/0"));
  CHECK_THAT(msg, Contains("nested deeper than 64 levels"));
  CHECK_THAT(msg, !Contains("json.exception"));
  const std::string ok = std::string(64, '[') + std::string(64, ']');
  CHECK(parse_json(ok, "ok.json", kConfigJson).is_array());
  const std::string objects = R"({"a": {"b": [{"c": 1}]}})";
  const json_limits shallow{"config", 1 << 20, 3};
  CHECK_THAT(usage_error_message([&] { (void)parse_json(objects, "o.json", shallow); }),
             Contains("o.json: /a/b/0: nested deeper than 3 levels"));
}

TEST_CASE("parse_json refuses a key given twice, naming its path", "[json_input]") {
  const auto msg = usage_error_message([] {
    (void)parse_json(R"({"summary": {"read_bytes_per_s": 1, "read_bytes_per_s": 2}})", "r.json",
                     kConfigJson);
  });
  CHECK_THAT(msg, Contains("r.json: /summary/read_bytes_per_s: the key \"read_bytes_per_s\" is "
                           "given twice"));
  // The same key in two objects is no duplicate.
  const auto j = parse_json(R"({"a": {"x": 1}, "b": {"x": 2}, "c": [{"x": 3}, {"x": 4}]})",
                            "ok.json", kConfigJson);
  CHECK(j["c"][1]["x"] == 4);
  CHECK(j["b"]["x"] == 2);
}

TEST_CASE("parse_json names the file and path of a syntax error, without the library prefix",
          "[json_input]") {
  const auto msg =
      usage_error_message([] { (void)parse_json(R"({"a": [1, 2, }])", "bad.json", kConfigJson); });
  CHECK_THAT(msg, Contains("bad.json: /a/2: not valid JSON: parse error at line 1"));
  CHECK_THAT(msg, !Contains("json.exception"));
  CHECK_THAT(usage_error_message([] { (void)parse_json("  \n", "e.json", kConfigJson); }),
             Contains("e.json: empty"));
}

TEST_CASE("read_input_file refuses a folder and a device, and a file over its limit",
          "[json_input]") {
  temp_dir d;
  CHECK_THAT(usage_error_message([&] { (void)read_input_file(d.path, kConfigJson); }),
             Contains("is a folder, not a config file"));
  CHECK_THAT(usage_error_message([] { (void)read_input_file("/dev/zero", kConfigJson); }),
             Contains("'/dev/zero' is a character device"));
  CHECK_THAT(usage_error_message([&] { (void)read_input_file(d.path / "none.json", kConfigJson); }),
             Contains("cannot read"));
  const json_limits small{"config", 100};
  write(d.path / "big.json", "[" + std::string(200, ' ') + "]");
  CHECK_THAT(usage_error_message([&] { (void)read_input_file(d.path / "big.json", small); }),
             Contains("is 202 bytes, over the 100 B limit for a config"));
  write(d.path / "fine.json", R"({"a": 1})");
  CHECK(read_json_file(d.path / "fine.json", small)["a"] == 1);
}

TEST_CASE("read_input_file reads a pipe up to its limit and gives up on an idle one",
          "[json_input]") {
  temp_dir d;
  const auto fifo = d.path / "fifo.json";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  const json_limits small{"config", 1000, 64, std::chrono::milliseconds(200)};
  {
    std::thread writer([&] { write_pipe(fifo, std::string(5000, ' ')); });
    const auto msg = usage_error_message([&] { (void)read_input_file(fifo, small); });
    writer.join();
    CHECK_THAT(msg, Contains("over the 1000 B limit for a config"));
  }
  {
    std::thread writer([&] { write_pipe(fifo, R"({"readers": 4})"); });
    const auto j = read_json_file(fifo, small);
    writer.join();
    CHECK(j["readers"] == 4);
  }
  // No writer at all: refused after the idle time, not a hang.
  CHECK_THAT(usage_error_message([&] { (void)read_input_file(fifo, small); }),
             Contains("the pipe gave no byte for 200 ms"));
}

TEST_CASE("check_report_fields names the file, key and type a report field must have",
          "[json_input]") {
  using dlsize::report::check_report_fields;
  CHECK_THAT(usage_error_message([] {
               check_report_fields(nlohmann::json::parse(R"({"summary": [1]})"), "a.json");
             }),
             Contains("a.json: /summary: is an array. valid: an object"));
  CHECK_THAT(usage_error_message([] {
               check_report_fields(nlohmann::json::parse(R"({"dataset": {"bytes": "x"}})"),
                                   "b.json");
             }),
             Contains("b.json: /dataset/bytes: is a string. valid: a number"));
  CHECK_THAT(usage_error_message([] { check_report_fields(nlohmann::json::array(), "c.json"); }),
             Contains("c.json: /: is an array"));
  CHECK_NOTHROW(check_report_fields(
      nlohmann::json::parse(R"({"summary": {"au_pass": null}, "topology": {"ranks": 2}})"),
      "ok.json"));
  // Ranges: a negative bandwidth, an AU above 1.
  CHECK_THAT(
      usage_error_message([] {
        check_report_fields(nlohmann::json::parse(R"({"summary": {"read_bytes_per_s": -5}})"),
                            "d.json");
      }),
      Contains("d.json: /summary/read_bytes_per_s: -5 is out of range. valid: a number >= 0"));
  CHECK_THAT(usage_error_message([] {
               check_report_fields(
                   nlohmann::json::parse(R"({"summary": {"accelerator_utilization": 1.5}})"),
                   "e.json");
             }),
             Contains("e.json: /summary/accelerator_utilization: 1.5 is out of range. valid: a "
                      "share from 0 to 1"));
  CHECK_NOTHROW(check_report_fields(
      nlohmann::json::parse(R"({"summary": {"storage_au": null, "wall_s": 0}})"), "ok.json"));
}
