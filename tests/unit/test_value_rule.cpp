#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

#include "config/option_table.hpp"
#include "core/value_rule.hpp"
#include "test_support.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using namespace dlsize::core;
using namespace dlsize::test;
namespace core = dlsize::core;

TEST_CASE("a count refuses negatives, fractions, NaN, inf, empty text and values past its range",
          "[value_rule]") {
  const auto r = core::count_rule(1, 256);
  CHECK(text_problem(r, "1").empty());
  CHECK(text_problem(r, "256").empty());
  for (const char* bad : {"-1", "1.5", "NaN", "nan", "inf", "", " 4", "0x10", "+4", "4k"})
    CHECK_THAT(text_problem(r, bad), StartsWith(std::string("'") + bad + "' is not valid"));
  CHECK(text_problem(r, "0") == "0 is out of range. valid: an integer from 1 to 256");
  CHECK_THAT(text_problem(r, "257"), StartsWith("257 is out of range"));
  // 2^64 does not wrap to 0, and 2^64 - 1 is kept apart from -1.
  CHECK_THAT(text_problem(r, "18446744073709551616"), Contains("out of range"));
  const auto seed = core::count_rule(0, UINT64_MAX);
  CHECK(text_problem(seed, "18446744073709551615").empty());
  CHECK_THAT(text_problem(seed, "18446744073709551616"), Contains("out of range"));
}

TEST_CASE("a real number refuses NaN and inf and honours an open lower bound", "[value_rule]") {
  const auto share = core::real_rule(0, 1, true);
  CHECK(text_problem(share, "1").empty());
  CHECK(text_problem(share, "0.01").empty());
  CHECK_THAT(text_problem(share, "0"), StartsWith("0 is out of range. valid: a number above 0"));
  for (const char* bad : {"NaN", "inf", "-inf", "", "one"})
    CHECK_THAT(text_problem(share, bad), Contains("is not valid"));
  const auto epochs = core::real_rule(0, 1e9);
  CHECK(text_problem(epochs, "0").empty());
  CHECK_THAT(text_problem(epochs, "-1"), Contains("out of range"));
  CHECK_THAT(text_problem(epochs, "1e300"), Contains("out of range"));
}

TEST_CASE("sizes, durations, rates and fractions are checked by their units and ranges",
          "[value_rule]") {
  const auto request = core::size_rule(4096, 64 << 20);
  CHECK(text_problem(request, "1MiB").empty());
  CHECK_THAT(text_problem(request, "1GiB"), Contains("out of range"));
  CHECK_THAT(text_problem(request, "NaN"), StartsWith("invalid size: 'NaN'"));
  CHECK_THAT(text_problem(request, "5x-ram"), Contains("is not valid"));
  CHECK(text_problem(core::size_rule(0, 1e18, true), "5x-ram").empty());
  const auto limit = core::duration_rule(0, 366 * 86400.0);
  CHECK(text_problem(limit, "60s").empty());
  CHECK_THAT(text_problem(limit, "inf"), StartsWith("invalid duration: 'inf'"));
  CHECK_THAT(text_problem(limit, "400d"), StartsWith("invalid duration: '400d'"));
  CHECK_THAT(text_problem(limit, "100000h"), Contains("out of range"));
  CHECK(text_problem(core::rate_rule(0, 1e16), "400GbE").empty());
  // A unit parser's own reason is kept, without an option name (the caller gives it).
  CHECK_THAT(text_problem(core::rate_rule(0, 1e16), "25G"),
             StartsWith("invalid rate: '25G' has no unit"));
  CHECK_THAT(text_problem(request, "lots"), StartsWith("invalid size: 'lots'"));
  const auto au = core::fraction_rule(false);
  CHECK(text_problem(au, "90%").empty());
  CHECK(text_problem(au, "0.9").empty());
  CHECK_THAT(text_problem(au, "0"), Contains("out of range"));
  CHECK_THAT(text_problem(au, "NaN%"), Contains("is not valid"));
  CHECK(text_problem(core::fraction_rule(true), "0").empty());
}

TEST_CASE("a path is not empty and no name in it is longer than the file system allows",
          "[value_rule]") {
  const auto p = core::path_rule();
  CHECK(text_problem(p, "reports/run.json").empty());
  CHECK(text_problem(p, "-").empty());
  CHECK_THAT(text_problem(p, ""), StartsWith("an empty file name"));
  CHECK_THAT(text_problem(p, "reports/" + std::string(300, 'a')), Contains("300 bytes long"));
  CHECK_THAT(text_problem(p, std::string(5000, '/')), Contains("a path of 5000 bytes"));
}

TEST_CASE("an s3:// name follows S3's key rule: 1,024 bytes, no limit on a name between slashes",
          "[value_rule]") {
  const auto p = core::path_rule();
  CHECK(text_problem(p, "s3://bucket/" + std::string(900, 'k')).empty());
  CHECK(text_problem(p, "s3://bucket/" + std::string(500, 'a') + "/" + std::string(500, 'b'))
            .empty());
  CHECK_THAT(text_problem(p, "s3://bucket/" + std::string(1100, 'k')),
             StartsWith("an s3:// URL of 1112 bytes"));
  // The same name as a folder is held to the file systems' 255 bytes.
  CHECK_THAT(text_problem(p, "data/" + std::string(900, 'k')), Contains("900 bytes long"));
}

TEST_CASE("a JSON value must have the type of its rule: no text for a number, no number for a "
          "path",
          "[value_rule]") {
  using nlohmann::json;
  const auto depth = core::count_rule(1, 4096);
  CHECK(json_problem(depth, json(16)).empty());
  CHECK_THAT(json_problem(depth, json("16")), StartsWith("\"16\" is text. valid: an integer"));
  CHECK_THAT(json_problem(depth, json(16.0)), StartsWith("16.0 is a number. valid: an integer"));
  CHECK_THAT(json_problem(depth, json(-1)), StartsWith("'-1' is not valid"));
  CHECK_THAT(json_problem(depth, json::array({1, 2})), StartsWith("[1,2] is an array"));
  CHECK_THAT(json_problem(depth, json::object({{"a", 1}})), StartsWith("{\"a\":1} is an object"));
  CHECK_THAT(json_problem(core::path_rule(), json(12345)), StartsWith("12345 is a number"));
  CHECK_THAT(json_problem(core::flag_rule(), json("true")), StartsWith("\"true\" is text"));
  CHECK(json_problem(core::flag_rule(), json(false)).empty());
  CHECK(json_problem(core::duration_rule(0, 100), json("60s")).empty());
  CHECK(json_problem(core::duration_rule(0, 100), json(60)).empty());
  CHECK_THAT(json_problem(core::duration_rule(0, 100), json(true)), Contains("is a boolean"));
  CHECK(json_problem(core::real_rule(0, 1), json(1)).empty());
  CHECK_THAT(json_problem(core::real_rule(0, 1), json("0.5")), Contains("is text"));
}

TEST_CASE("the checks name the option or key the user gave", "[value_rule]") {
  CHECK(usage_error_message([] { check_text(core::count_rule(0, 10), "-1", "--keep-last"); }) ==
        "--keep-last: '-1' is not valid. valid: an integer from 0 to 10");
  CHECK(usage_error_message([] {
          check_json(core::path_rule(), nlohmann::json(12345), "cfg.json: out");
        }) == "cfg.json: out: 12345 is a number. valid: a path of at most 4095 bytes, each name "
              "at most 255 (s3://BUCKET/KEY: a key of at most 1024 bytes)");
}

TEST_CASE("the option table has one entry per command and option, each with a sane range",
          "[value_rule]") {
  const auto table = dlsize::config::option_table();
  REQUIRE(table.size() > 100);
  for (std::size_t i = 0; i < table.size(); ++i) {
    const auto& e = table[i];
    INFO(std::string(e.command) + " " + std::string(e.option));
    // An entry of several commands ("size|compare") is each one's.
    for (std::string_view rest = e.command;;) {
      const auto bar = rest.find('|');
      CHECK(dlsize::config::option_rule(rest.substr(0, bar), e.option) == &e.rule);
      if (bar == std::string_view::npos)
        break;
      rest = rest.substr(bar + 1);
    }
    if (e.rule.kind == core::value_kind::count)
      CHECK(e.rule.min <= e.rule.max);
    if (e.rule.kind != core::value_kind::count && e.rule.kind != core::value_kind::flag &&
        e.rule.kind != core::value_kind::text && e.rule.kind != core::value_kind::path)
      CHECK(e.rule.lo < e.rule.hi);
  }
  // A shared option falls back to its shared entry; a command's own entry wins.
  CHECK(dlsize::config::option_rule("plan", "--nics-per-node") != nullptr);
  CHECK(dlsize::config::option_rule("size", "--accelerators-per-node")->min == 1);
  CHECK(dlsize::config::option_rule("bench", "--accelerators-per-node")->min == 0);
  CHECK(dlsize::config::option_rule("bench", "--no-such-option") == nullptr);
  // The values the issue found wrapping or crashing are refused by the table's ranges.
  CHECK_FALSE(
      text_problem(*dlsize::config::option_rule("bench", "--prefetch"), "18446744073709551615")
          .empty());
  CHECK_FALSE(text_problem(*dlsize::config::option_rule("datagen", "--threads"), "100000").empty());
  CHECK_FALSE(
      text_problem(*dlsize::config::option_rule("checkpoint", "--keep-last"), "-1").empty());
  CHECK_FALSE(text_problem(*dlsize::config::option_rule("plan", "--epochs"), "NaN").empty());
  CHECK_FALSE(
      text_problem(*dlsize::config::option_rule("size", "--target-accelerators"), "inf").empty());
}
