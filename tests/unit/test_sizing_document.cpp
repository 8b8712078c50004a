// Unit tests for src/analysis/sizing_document.hpp: a small typed sizing document, as its JSON
// (analysis/sizing_json.cpp) and as the tables and sentences the renderers make of it.
#include <string>

#include <catch2/catch.hpp>

#include "analysis/sizing_document.hpp"
#include "render/checkpoint_tables.hpp"
#include "render/sizing_tables.hpp"

using namespace dlsize;
using Catch::Contains;

namespace {

// One write-only checkpoint series at one rank count (no fit, no restore), and no read path.
analysis::sizing_document write_only() {
  analysis::sizing_document d;
  d.read_path = {false, "not measured: no training run"};
  d.write_path = {true, "checkpoint write bandwidth"};
  analysis::checkpoint_series_document s;
  s.source = "bench --checkpoint-every";
  s.workload = "resnet50";
  s.backend = "ck (xfs)";
  s.cache_mode = "buffered";
  s.scale = 0.5;
  s.bytes_per_checkpoint = 2 * 1048576.0;
  analysis::checkpoint_run_row r;
  r.file = "a.json";
  r.ranks = 2;
  r.write_bytes_per_s = 300e6;
  s.runs.push_back(r);
  analysis::checkpoint_path w;
  w.measured.push_back({2, 1, analysis::stats_of({300e6}), analysis::stats_of({0.25})});
  w.best_bytes_per_s = 300e6;
  w.knee.reason = "one rank count: no knee";
  s.write = w;
  d.checkpoint_series.push_back(s);
  return d;
}

} // namespace

TEST_CASE("a typed write-only checkpoint series renders and writes its JSON", "[sizing]") {
  const auto d = write_only();
  const auto& s = d.checkpoint_series[0];
  CHECK(render::checkpoint_title(s) ==
        "resnet50 checkpoints (bench --checkpoint-every), ck (xfs), buffered I/O, 2.00 MiB each, "
        "scale 0.5");
  const auto lines = render::checkpoint_summary_lines(d);
  REQUIRE(lines.size() == 2);
  CHECK(lines[0] == "Read path: not measured: no training run");
  CHECK_THAT(lines[1], Contains(": write best 300.0 MB/s"));
  CHECK_THAT(lines[1], Contains("at 1 rank counts, no fit (one rank count); restore not measured"));
  const auto measured = render::checkpoint_measured_table(s);
  REQUIRE(measured.rows.size() == 1);
  CHECK(measured.rows[0] ==
        std::vector<std::string>{"2", "1", "300 MB/s", "0.25 s", "not measured", "–"});
  const auto runs = render::checkpoint_runs_table(s);
  CHECK(runs.rows[0] == std::vector<std::string>{"2", "300.0", "–", "–", "–", "–", "–", "a.json"});
  const nlohmann::json j = analysis::to_json(d)["checkpoint_series"][0];
  CHECK(j["read"].is_null());
  CHECK(j["write"]["fit"].is_null());
  CHECK(j["write"]["measured"][0]["duration_s"]["median"] == 0.25);
  CHECK(j["runs"][0]["write_fitted"].is_null());
  CHECK(j["runs"][0]["read_bytes_per_s"].is_null());
  CHECK(j["scale"] == 0.5);
}

TEST_CASE("a fit's curve and intervals, as the document holds them", "[sizing]") {
  const auto f = analysis::fit_with_curve(analysis::fit_line({1, 2, 4}, {10, 21, 39}), 4.4);
  REQUIRE(f.curve.size() == 33);
  CHECK(f.curve.back().count == Approx(4.4));
  CHECK(f.curve[0].fitted == Approx(f.line.intercept));
  REQUIRE(f.slope_ci95());
  CHECK(f.slope_ci95()->first < f.line.slope);
  CHECK(f.slope_ci95()->second > f.line.slope);
  const auto two = analysis::fit_with_curve(analysis::fit_line({1, 2}, {10, 20}), 0);
  CHECK(two.curve.empty());
  CHECK_FALSE(two.slope_ci95()); // no degrees of freedom
  CHECK(render::interval_text(two.slope_ci95(), true) == "–");
  CHECK(render::interval_text(std::pair{1e6, 2e6}, true) == "1.0–2.0 MB/s");
}
