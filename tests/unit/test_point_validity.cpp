// Unit tests for src/analysis/point_validity.hpp: MLPerf Storage's rules over the runs of one
// point (5 runs after a warm-up, within 5 % of each other, each run valid), judged on numbers.
#include <cmath>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "analysis/point_validity.hpp"
#include "render/point_validity_text.hpp"

using namespace dlsize;
using analysis::judge_point;
using analysis::point_run;
using report::rule_verdict;

namespace {

// A run whose own rules all pass (or, with `own`, as given).
point_run run(const std::string& file, double samples_per_s,
              rule_verdict own = rule_verdict::pass) {
  point_run r;
  r.file = file;
  r.samples_per_s = samples_per_s;
  r.run.rules = {{"≥ 500 steps per epoch", own, "625 steps per epoch", "", ""}};
  return r;
}

// Runs of 90 s each, one every 100 s from 1,800,000,000 s (2027-01-15), in the order given.
std::vector<point_run> runs_of(const std::vector<double>& samples_per_s) {
  std::vector<point_run> out;
  for (std::size_t i = 0; i < samples_per_s.size(); ++i) {
    out.push_back(run("r" + std::to_string(i + 1) + ".json", samples_per_s[i]));
    out.back().start_s = 1.8e9 + 100.0 * static_cast<double>(i);
    out.back().end_s = out.back().start_s + 90;
  }
  return out;
}

const std::vector<double> kSix = {700, 1000, 1010, 1040, 1020, 1005};

rule_verdict verdict_of(const analysis::point_validity& p, std::size_t i) {
  return p.rules.rules.at(i).verdict;
}

} // namespace

TEST_CASE("five valid runs within 4 % of each other qualify", "[point_validity]") {
  const auto p = judge_point(runs_of({1000, 1010, 1040, 1020, 1005}), "dlsize size",
                             report::rules_edition::v2);
  CHECK(p.qualifies());
  CHECK(p.rules.verdict() == "VALID");
  CHECK(p.counted.size() == 5);
  CHECK_FALSE(p.warm_up.has_value());
  CHECK(p.spread == Approx(40.0 / 1010));
  REQUIRE(p.rules.rules.size() == 3);
  for (const auto& r : p.rules.rules) {
    CHECK(r.verdict == rule_verdict::pass);
    CHECK_THAT(r.judge, Catch::Matchers::Contains("dlsize size"));
    CHECK_FALSE(r.source.empty());
  }
}

TEST_CASE("four runs are not enough", "[point_validity]") {
  const auto p =
      judge_point(runs_of({1000, 1010, 1020, 1005}), "dlsize compare", report::rules_edition::v2);
  CHECK_FALSE(p.qualifies());
  CHECK(p.rules.verdict() == "INVALID");
  CHECK(verdict_of(p, 0) == rule_verdict::fail);
  CHECK_THAT(p.rules.rules[0].measured, Catch::Matchers::Contains("4 complete runs"));
  CHECK(verdict_of(p, 1) == rule_verdict::pass); // the spread is judged all the same
}

TEST_CASE("runs spread 6 % fail the spread rule", "[point_validity]") {
  const auto p = judge_point(runs_of({1000, 1060, 1020, 1030, 1010}), "dlsize size",
                             report::rules_edition::v2);
  CHECK(p.spread == Approx(60.0 / 1020));
  CHECK(verdict_of(p, 0) == rule_verdict::pass);
  CHECK(verdict_of(p, 1) == rule_verdict::fail);
  CHECK_THAT(p.rules.rules[1].measured, Catch::Matchers::Contains("5.9 %"));
  CHECK_FALSE(p.qualifies());
}

TEST_CASE("an incomplete run is left out: it neither counts nor warms up nor spreads",
          "[point_validity]") {
  auto runs = runs_of({1000, 1010, 1040, 1020, 1005});
  point_run stopped = run("stopped.json", 300); // far outside the others
  stopped.complete = false;
  runs.insert(runs.begin(), stopped);
  const auto p = judge_point(runs, "dlsize size", report::rules_edition::v2);
  CHECK(p.qualifies());
  CHECK_FALSE(p.warm_up.has_value());
  CHECK(p.counted.size() == 5);
  REQUIRE(p.left_out.size() == 1);
  CHECK(p.left_out[0].file == "stopped.json");
  CHECK(p.spread == Approx(40.0 / 1010));
}

TEST_CASE("of six complete runs the first is the warm-up and is not judged", "[point_validity]") {
  // The warm-up is slow (a cold cache): left out, the other five are within 5 %.
  const auto p = judge_point(runs_of({700, 1000, 1010, 1040, 1020, 1005}), "dlsize size",
                             report::rules_edition::v2);
  REQUIRE(p.warm_up.has_value());
  CHECK(*p.warm_up == "r1.json");
  CHECK(p.counted.size() == 5);
  CHECK(p.qualifies());
  CHECK_THAT(p.rules.rules[0].measured, Catch::Matchers::Contains("warm-up"));
}

TEST_CASE("one invalid run makes the point invalid; a run not proven leaves it not proven",
          "[point_validity]") {
  auto runs = runs_of({1000, 1010, 1040, 1020, 1005});
  runs[2].run.rules[0].verdict = rule_verdict::fail;
  auto p = judge_point(runs, "dlsize size", report::rules_edition::v2);
  CHECK(verdict_of(p, 2) == rule_verdict::fail);
  CHECK_THAT(p.rules.rules[2].measured, Catch::Matchers::Contains("r3.json fails"));
  CHECK(p.rules.verdict() == "INVALID");
  runs[2].run.rules[0].verdict = rule_verdict::not_judged;
  p = judge_point(runs, "dlsize size", report::rules_edition::v2);
  CHECK(verdict_of(p, 2) == rule_verdict::not_judged);
  CHECK(p.rules.verdict() == "not proven");
  CHECK_FALSE(p.qualifies());
}

TEST_CASE("one run's spread is not judged", "[point_validity]") {
  const auto p = judge_point(runs_of({1000}), "dlsize compare", report::rules_edition::v2);
  CHECK(verdict_of(p, 1) == rule_verdict::not_judged);
  const auto j = analysis::to_json(p);
  CHECK(j["samples_per_s_spread"].is_null());
  CHECK(j["rules"][1]["verdict"] == "not judged");
  CHECK(j["verdict"] == "INVALID");
  CHECK(j["runs_counted"] == 1);
}

TEST_CASE("under v3 a point needs 6 runs, the first the warm-up", "[point_validity][v3]") {
  auto p = judge_point(runs_of(kSix), "dlsize size", report::rules_edition::v3);
  CHECK(p.rules.edition == report::rules_edition::v3);
  CHECK(verdict_of(p, 0) == rule_verdict::pass);
  CHECK(p.rules.rules[0].rule == "6 runs, the first the warm-up");
  CHECK_THAT(p.rules.rules[0].source, Catch::Contains("§2.1.17"));
  REQUIRE(p.warm_up);
  CHECK(*p.warm_up == "r1.json");
  CHECK(p.qualifies());
  CHECK(analysis::to_json(p)["rules_edition"] == "v3");
  // Five runs qualified under v2 (the warm-up may be left out); v3 needs the warm-up run.
  p = judge_point(runs_of({1000, 1010, 1040, 1020, 1005}), "dlsize size",
                  report::rules_edition::v3);
  CHECK(verdict_of(p, 0) == rule_verdict::fail);
  CHECK_FALSE(p.qualifies());
  CHECK(
      judge_point(runs_of({1000, 1010, 1040, 1020, 1005}), "dlsize size", report::rules_edition::v2)
          .qualifies());
}

TEST_CASE("under v3 six runs one after another are consecutive", "[point_validity][v3]") {
  const auto p = judge_point(runs_of(kSix), "dlsize size", report::rules_edition::v3);
  REQUIRE(p.rules.rules.size() == 4);
  const auto& c = p.rules.rules[3];
  CHECK(c.verdict == rule_verdict::pass);
  CHECK_THAT(c.source, Catch::Contains("§2.1.18 runTimestampGap"));
  CHECK_THAT(c.measured, Catch::Contains("6 runs from 2027-01-15T08:00:00.000Z"));
  CHECK_THAT(c.measured, Catch::Contains("the longest gap 10.0 s"));
  CHECK(p.qualifies());
  // v1 and v2 judge no such rule: their three rules, as before.
  for (const auto e : {report::rules_edition::v1, report::rules_edition::v2})
    CHECK(judge_point(runs_of(kSix), "dlsize size", e).rules.rules.size() == 3);
}

TEST_CASE("under v3 a gap as long as a run breaks the runs", "[point_validity][v3]") {
  auto runs = runs_of(kSix);
  for (std::size_t i = 3; i < runs.size(); ++i) { // 90 s more before the 4th run
    runs[i].start_s += 90;
    runs[i].end_s += 90;
  }
  auto p = judge_point(runs, "dlsize compare", report::rules_edition::v3);
  CHECK(verdict_of(p, 3) == rule_verdict::fail);
  CHECK_THAT(p.rules.rules[3].measured, Catch::Contains("100.0 s between r3.json"));
  CHECK_THAT(p.rules.rules[3].measured, Catch::Contains("not less than the shorter run's 90.0 s"));
  CHECK_FALSE(p.qualifies());
  CHECK(p.rules.verdict() == "INVALID");
  // 79 s more: a gap of 89 s, shorter than the 90 s runs, passes.
  runs = runs_of(kSix);
  for (std::size_t i = 3; i < runs.size(); ++i) {
    runs[i].start_s += 79;
    runs[i].end_s += 79;
  }
  CHECK(verdict_of(judge_point(runs, "dlsize size", report::rules_edition::v3), 3) ==
        rule_verdict::pass);
  // The same runs with the gap judge as before under v2.
  CHECK(judge_point(runs, "dlsize size", report::rules_edition::v2).qualifies());
}

TEST_CASE("under v3 overlapping runs are not consecutive", "[point_validity][v3]") {
  auto runs = runs_of(kSix);
  runs[2].start_s -= 30; // starts 20 s before r2 ended
  const auto p = judge_point(runs, "dlsize size", report::rules_edition::v3);
  CHECK(verdict_of(p, 3) == rule_verdict::fail);
  CHECK_THAT(p.rules.rules[3].measured, Catch::Contains("r3.json started 20.0 s before r2.json"));
}

TEST_CASE("under v3 a run left out between the counted ones breaks them", "[point_validity][v3]") {
  auto runs = runs_of(kSix);
  point_run cut = run("x.json", 0); // 5 s of an incomplete run in the 10 s after r3
  cut.complete = false;
  cut.start_s = runs[2].end_s + 2;
  cut.end_s = cut.start_s + 5;
  runs.push_back(cut);
  auto p = judge_point(runs, "dlsize size", report::rules_edition::v3);
  CHECK(verdict_of(p, 0) == rule_verdict::pass); // 6 complete runs
  CHECK(verdict_of(p, 3) == rule_verdict::fail);
  CHECK_THAT(p.rules.rules[3].measured, Catch::Contains("x.json (2027-01-15T08:04:52.000Z, left "
                                                        "out) ran between r1.json and r6.json"));
  // Removed from the middle, a run leaves a gap longer than a run: that breaks them too.
  runs = runs_of({700, 1000, 1010, 990, 1040, 1020, 1005});
  runs.erase(runs.begin() + 3);
  p = judge_point(runs, "dlsize size", report::rules_edition::v3);
  CHECK(verdict_of(p, 3) == rule_verdict::fail);
  CHECK_THAT(p.rules.rules[3].measured, Catch::Contains("110.0 s between r3.json"));
}

TEST_CASE("under v3 runs without times leave the point not proven", "[point_validity][v3]") {
  auto runs = runs_of(kSix);
  runs[4].end_s = std::nan("");
  const auto p = judge_point(runs, "dlsize size", report::rules_edition::v3);
  CHECK(verdict_of(p, 3) == rule_verdict::not_judged);
  CHECK_THAT(p.rules.rules[3].measured, Catch::Contains("r5.json records no start and end"));
  CHECK_FALSE(p.qualifies());
  CHECK(p.rules.verdict() == "not proven");
}

TEST_CASE("under v3 of more than 6 complete runs the last 6 in time are judged",
          "[point_validity][v3]") {
  // 8 runs, given out of order: the two earliest (r1, r2) are left out, r3 is the warm-up.
  auto runs = runs_of({500, 600, 700, 1000, 1010, 1040, 1020, 1005});
  std::swap(runs[0], runs[7]);
  const auto p = judge_point(runs, "dlsize size", report::rules_edition::v3);
  REQUIRE(p.left_out.size() == 2);
  CHECK(p.left_out[0].file == "r1.json");
  CHECK(p.left_out[1].file == "r2.json");
  CHECK_THAT(p.left_out[0].reason, Catch::Contains("§2.1.18a runPickingSubsets"));
  REQUIRE(p.warm_up);
  CHECK(*p.warm_up == "r3.json");
  CHECK(p.counted ==
        std::vector<std::string>{"r4.json", "r5.json", "r6.json", "r7.json", "r8.json"});
  CHECK(p.qualifies()); // 1000-1040: within 5 %; had r1-r2 been counted, the spread would fail
  CHECK_THAT(p.rules.rules[3].measured, Catch::Contains("6 runs from 2027-01-15T08:03:20.000Z"));
  // v2 keeps its rule: the first is the warm-up, every other run counted (and spread).
  const auto v2 = judge_point(runs, "dlsize size", report::rules_edition::v2);
  CHECK(v2.counted.size() == 7);
  CHECK(v2.left_out.empty());
}

TEST_CASE("the mlperf_validity block reads back as the verdict it was written from, and its text",
          "[point_validity]") {
  auto runs = runs_of({500, 600, 700, 1000, 1010, 1040, 1020, 1005});
  std::swap(runs[0], runs[7]);
  runs[4].complete = false;
  for (const auto edition : {report::rules_edition::v2, report::rules_edition::v3}) {
    const auto p = judge_point(runs, "dlsize size", edition);
    const nlohmann::json block = analysis::to_json(p);
    const auto back = analysis::point_validity_from_json(block);
    CHECK(analysis::to_json(back).dump(2) == block.dump(2));
    CHECK(back.qualifies() == block["qualifies"].get<bool>());
    CHECK(render::point_validity_cell(back) == render::point_validity_cell(p));
    CHECK(render::rules_edition_of(back) == block["rules_edition"].get<std::string>());
  }
  const auto p = judge_point(runs_of({1000, 1010, 1040, 1020, 1005, 990}), "dlsize size",
                             report::rules_edition::v2);
  CHECK(render::point_validity_cell(p) == "VALID");
  auto failed = p;
  failed.rules.rules[1].verdict = rule_verdict::fail;
  CHECK(render::point_validity_cell(failed) == "INVALID (FAIL: " + p.rules.rules[1].rule + ")");
  const auto lines = render::point_validity_lines(failed);
  REQUIRE(lines.size() == p.rules.rules.size());
  CHECK(lines[1].rfind("FAIL " + p.rules.rules[1].rule + ": ", 0) == 0);
  CHECK_THAT(lines[1], Catch::Contains("(source: ") && Catch::Contains("; judged by: dlsize size"));
  CHECK_THROWS(analysis::point_validity_from_json(nlohmann::json::object()));
}
