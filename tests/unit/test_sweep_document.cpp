// Unit tests for the typed sweep index (sweep/sweep_document.hpp, sweep/sweep_index_json.cpp):
// the committed sweeps' indexes and an index a test sweep saved, resumed and left incomplete are
// the same bytes read by from_json and written by to_json; a typed value's JSON has nulls where a
// point has not run; a point's report gives its summary.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "test_support.hpp"

#include "sweep/sweep_config.hpp"
#include "sweep/sweep_document.hpp"
#include "sweep/sweep_index.hpp"

using namespace dlsize;
using Catch::Matchers::Contains;
namespace fs = std::filesystem;

namespace {

std::string index_text_of(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// The index text read by from_json and written by to_json as sweep_index writes it.
std::string index_round_trip(const std::string& text) {
  return sweep::to_json(sweep::from_json(nlohmann::json::parse(text), "index.json")).dump(2) + "\n";
}

} // namespace

TEST_CASE("the committed sweep indexes read and written again are the same bytes",
          "[sweep][sweep_document]") {
  for (const char* dir : {"results/sweep-disk", "results/sweep-capped"}) {
    const std::string text = index_text_of(fs::path(DLSIZE_SOURCE_DIR) / dir / "index.json");
    REQUIRE(text.size() > 1000);
    CHECK(index_round_trip(text) == text);
    const auto d = sweep::from_json(nlohmann::json::parse(text), "index.json");
    CHECK(d.status == sweep::sweep_status::complete);
    CHECK(sweep::done_reports(d).size() == d.points.size());
  }
}

TEST_CASE("a sweep's index saved, resumed and left incomplete reads back to the same bytes",
          "[sweep][sweep_document]") {
  test::temp_dir tmp("dlsize-sweep-doc");
  const nlohmann::json config = {
      {"bench", {{"workload", "resnet50"}, {"accelerator", "emulated:h100"}}},
      {"datasets", {{{"name", "small"}, {"dataset", "ds1"}}}},
      {"cache", {"buffered"}},
      {"accelerators", {1, 2, 4}},
      {"repeats", 1}};
  const auto c = sweep::parse_sweep_config(
      config, "sweep.json",
      {"workload", "accelerator", "dataset", "cache", "accelerators", "seed"});
  const auto points = sweep::expand_points(c);
  const auto dir = tmp.path / "sw";
  {
    sweep::sweep_index index(dir, c, points, nlohmann::json::array({"dlsize", "sweep"}));
    index.begin_attempt(0);
    auto& done = index.point(0);
    done.argv = std::vector<std::string>{"dlsize", "bench", "--cache", "buffered"};
    done.exit_code = 0;
    done.wall_s = 1.25;
    done.summary = sweep::point_summary{"complete", false, 0.93, 2.5e8, 1234.5, true, {}, {}};
    done.status = sweep::point_status::done;
    std::ofstream(dir / *done.report)
        << R"({"schema": "dlsize.report/1", "kind": "bench", "status": "complete"})";
    index.begin_attempt(1);
    index.point(1).signal = 9;
    index.point(1).status = sweep::point_status::failed;
    index.begin_attempt(2);
    index.point(2).summary = sweep::point_summary{"incomplete", true, {}, 3e8, {}, {}, 1.5e9, {}};
    index.set_status(sweep::sweep_status::incomplete, "1 points failed");
    index.save();
  }
  sweep::sweep_index resumed(dir, c, points, {});
  resumed.begin_attempt(1);
  resumed.set_status(sweep::sweep_status::incomplete, "interrupted by signal 2");
  resumed.save();
  const std::string text = index_text_of(dir / "index.json");
  CHECK_THAT(text, Contains("\"resumed_at\""));
  CHECK_THAT(text, Contains("\"cache\": \"buffered\""));
  CHECK_THAT(text, Contains("\"write_bytes_per_s\": 1500000000.0"));
  CHECK_THAT(text, Contains("n2-small-buffered-r1.try2"));
  CHECK(index_round_trip(text) == text);
  CHECK(resumed.text() == text);

  // Keys a typed field does not hold ride along, at the top and in a point.
  auto j = nlohmann::json::parse(text);
  j["later"] = {{"kept", true}};
  j["points"][1]["note"] = "by hand";
  const std::string with_extra = j.dump(2) + "\n";
  CHECK(index_round_trip(with_extra) == with_extra);
}

TEST_CASE("a typed sweep index writes nulls for what a point has not done",
          "[sweep][sweep_document]") {
  sweep::sweep_document d;
  d.created_at = d.updated_at = "2026-01-01T00:00:00Z";
  d.config_source = "s.json";
  sweep::point_record p;
  p.id = "np2-r1";
  p.ranks = 2;
  p.repeat = 1;
  p.cache = io::cache_mode::uncached;
  d.points.push_back(p);
  auto j = sweep::to_json(d);
  CHECK(j["schema"] == "dlsize.sweep/1");
  CHECK(j["status"] == "running");
  CHECK_FALSE(j.contains("reason"));
  CHECK_FALSE(j.contains("resumed_at"));
  const auto& e = j["points"][0];
  CHECK(e["accelerators"].is_null());
  CHECK(e["seed"].is_null());
  CHECK(e["dataset"].is_null());
  CHECK(e["cache"] == "uncached");
  CHECK(e["status"] == "pending");
  CHECK(e["attempts"] == 0);
  for (const char* k : {"report", "log", "argv", "exit_code", "signal", "started_at", "ended_at",
                        "wall_s", "summary"})
    CHECK(e[k].is_null());
  d.status = sweep::sweep_status::incomplete;
  d.reason = "1 points failed";
  CHECK(sweep::to_json(d)["reason"] == "1 points failed");
  CHECK(sweep::done_reports(d).empty());
}

TEST_CASE("a sweep index of another kind or with a bad field is refused naming the key",
          "[sweep][sweep_document]") {
  const auto refused = [](const nlohmann::json& j) {
    return test::usage_error_message([&] { (void)sweep::from_json(j, "sw/index.json"); });
  };
  CHECK_THAT(refused({{"schema", "dlsize.plan/1"}}),
             Contains("sw/index.json: not a dlsize sweep index (schema dlsize.sweep/1)"));
  auto j = nlohmann::json::parse(
      index_text_of(fs::path(DLSIZE_SOURCE_DIR) / "results/sweep-disk/index.json"));
  j["points"][2]["status"] = "skipped";
  CHECK_THAT(refused(j), Contains("points[2].status: 'skipped' is not valid. valid: pending, "
                                  "running, done, interrupted, failed"));
  j["points"][2]["status"] = "done";
  j["points"][0]["attempts"] = "one";
  CHECK_THAT(refused(j), Contains("points[0].attempts: must be an integer"));
}

TEST_CASE("a point's summary comes from its bench or checkpoint report",
          "[sweep][sweep_document]") {
  test::temp_dir tmp("dlsize-sweep-summary");
  CHECK_FALSE(sweep::read_point_summary(tmp.path / "none.json"));
  std::ofstream(tmp.path / "ck.json")
      << R"({"schema": "dlsize.report/1", "kind": "checkpoint", "status": "complete",
            "checkpoint": {"write": {"count": 2, "bytes_per_s": 2.5e9},
                           "read": {"count": 0, "bytes_per_s": 0.0}}})";
  const auto ck = sweep::read_point_summary(tmp.path / "ck.json");
  REQUIRE(ck);
  CHECK(ck->checkpoint);
  CHECK(ck->complete());
  CHECK(ck->write_bytes_per_s == 2.5e9);
  CHECK_FALSE(ck->read_bytes_per_s);
  std::ofstream(tmp.path / "b.json")
      << R"({"schema": "dlsize.report/1", "kind": "bench", "status": "incomplete",
            "summary": {"accelerator_utilization": 0.5, "read_bytes_per_s": 1e8}})";
  const auto b = sweep::read_point_summary(tmp.path / "b.json");
  REQUIRE(b);
  CHECK_FALSE(b->checkpoint);
  CHECK_FALSE(b->complete());
  CHECK(b->accelerator_utilization == 0.5);
  CHECK(b->read_bytes_per_s == 1e8);
  CHECK_FALSE(b->samples_per_s);
}
