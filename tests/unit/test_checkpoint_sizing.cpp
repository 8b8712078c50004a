// Unit tests for the write path of size and sweep: analysis/bandwidth_fit (the fit code both
// paths share), analysis/checkpoint_sizing (checkpoint reports into series fitted against
// ranks) and a sweep config of "command": "checkpoint".
#include <filesystem>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "test_support.hpp"

#include "analysis/bandwidth_fit.hpp"
#include "analysis/checkpoint_sizing.hpp"
#include "analysis/sizing_report.hpp"
#include "core/json_input.hpp"
#include "render/checkpoint_tables.hpp"
#include "sweep/sweep_config.hpp"

using namespace dlsize;
using Catch::Matchers::Contains;

namespace {

// A checkpoint report dlsize wrote (data/checkpoint_report.json: one rank, complete).
nlohmann::json fixture_report() {
  return core::read_json_file(std::filesystem::path(DLSIZE_SOURCE_DIR) /
                                  "tests/unit/data/checkpoint_report.json",
                              core::kReportJson);
}

// The fixture with the figures size reads set: a run of its own (run_id) at `ranks`, at /ck on
// xfs at --scale 0.5, writing 1 GB checkpoints twice and restoring once (none at read_bps 0).
nlohmann::json checkpoint_report(std::uint64_t ranks, double write_bps, double read_bps,
                                 const std::string& label = "") {
  static int runs = 0;
  nlohmann::json r = fixture_report();
  r["run_id"] = fmt::format("{:032x}", ++runs);
  r.erase("label");
  r["config"]["label"] = label.empty() ? nlohmann::json() : nlohmann::json(label);
  auto& c = r["checkpoint"];
  c["ranks"] = ranks;
  c["dir"] = "/ck";
  c["fs_type"] = "xfs";
  c["scale"] = 0.5;
  c["bytes_per_checkpoint"] = std::uint64_t{1000000000};
  const auto phase = [](nlohmann::json& p, std::uint64_t count, double bps, double throughput,
                        double mean_s) {
    p["count"] = count;
    p["bytes_per_s"] = bps;
    p["throughput_bytes_per_s"] = throughput;
    p["duration_s"]["mean"] = mean_s;
  };
  phase(c["write"], 2u, write_bps, write_bps / static_cast<double>(ranks), 1e9 / write_bps);
  phase(c["read"], read_bps > 0 ? 1u : 0u, read_bps, read_bps, 1.0);
  return r;
}

std::vector<analysis::loaded_report> loaded(const std::vector<nlohmann::json>& reports) {
  std::vector<analysis::loaded_report> out;
  for (std::size_t i = 0; i < reports.size(); ++i)
    out.push_back(analysis::loaded_report::of("r" + std::to_string(i) + ".json", reports[i]));
  return out;
}

nlohmann::json series_of(const std::vector<analysis::loaded_report>& reports) {
  std::vector<const analysis::loaded_report*> p;
  for (const auto& r : reports)
    p.push_back(&r);
  analysis::sizing_document d;
  d.checkpoint_series = analysis::checkpoint_series(p);
  return to_json(d)["checkpoint_series"];
}

const std::vector<std::string> kCheckpointKeys = {"workload", "dir",   "scale", "writes",
                                                  "reads",    "cache", "out",   "label"};

std::string refused(const nlohmann::json& j) {
  return test::usage_error_message(
      [&] { (void)sweep::parse_sweep_config(j, "sweep.json", {"workload"}, kCheckpointKeys); });
}

} // namespace

TEST_CASE("one count gives no line, and a count's spread repeats are named",
          "[sizing][checkpoint]") {
  const auto f = analysis::fit_bandwidth({{"a", 2, 100e6}, {"b", 2, 120e6}}, "rank");
  CHECK_FALSE(f.line);
  CHECK_FALSE(f.knee.tested);
  CHECK_THAT(f.knee.reason, Contains("2 runs at 1 rank counts"));
  REQUIRE(f.warnings.size() == 2);
  CHECK_THAT(f.warnings[0], Contains("every run has 2 ranks: no fit"));
  CHECK_THAT(f.warnings[1], Contains("the repeats at 2 ranks spread 18.2 %"));
  CHECK(f.best_bytes_per_s == Approx(110e6));
}

TEST_CASE("bandwidth fits the same line as least squares, knee only where it bends",
          "[sizing][checkpoint]") {
  std::vector<analysis::bandwidth_run> line, bent;
  for (double n : {1, 2, 3, 4, 6, 8})
    for (double w : {0.99, 1.0, 1.01}) {
      line.push_back({"x", n, 50e6 * n * w});
      bent.push_back({"x", n, 50e6 * std::min(n, 4.0) * w});
    }
  const auto l = analysis::fit_bandwidth(line, "rank");
  REQUIRE(l.line);
  CHECK(l.line->slope == Approx(50e6).epsilon(0.01));
  CHECK(l.knee.tested);
  CHECK_FALSE(l.knee.chosen);
  const auto b = analysis::fit_bandwidth(bent, "rank");
  CHECK(b.knee.chosen);
  CHECK(b.knee.hinge.breakpoint == Approx(4).margin(1));
  CHECK_THAT(b.knee.reason, Contains("ranks"));
}

TEST_CASE("a significant knee that barely bends is undone unless something fails past it",
          "[sizing][checkpoint]") {
  analysis::knee_test k;
  k.chosen = true;
  k.hinge.slope_before = 10;
  k.hinge.slope_after = 9;
  analysis::keep_practical_knee(k, true);
  CHECK(k.chosen);
  analysis::keep_practical_knee(k, false);
  CHECK_FALSE(k.chosen);
  CHECK_THAT(k.reason, Contains("no knee in practice"));
}

TEST_CASE("checkpoint reports become series against ranks, one per backend",
          "[sizing][checkpoint]") {
  const auto reports =
      loaded({checkpoint_report(1, 100e6, 200e6), checkpoint_report(2, 190e6, 0),
              checkpoint_report(4, 390e6, 700e6), checkpoint_report(1, 50e6, 0, "other")});
  const auto s = series_of(reports);
  REQUIRE(s.size() == 2);
  const auto& a = s[0];
  CHECK(a["source"] == "dlsize checkpoint");
  CHECK(a["runs"].size() == 3);
  REQUIRE(a["write"]["fit"].is_object());
  CHECK(a["write"]["fit"]["n"] == 3);
  // Least squares by hand: Sxy 453.3e6 ÷ Sxx 4.667 (ranks 1, 2, 4; 100, 190, 390 MB/s).
  CHECK(a["write"]["fit"]["slope"].get<double>() == Approx(680e6 / 7).epsilon(1e-9));
  CHECK(a["write"]["measured"].size() == 3);
  CHECK(a["runs"][1]["read_bytes_per_s"].is_null()); // --reads 0 in that run
  CHECK(a["read"]["fit"]["n"] == 2);                 // the two runs that restored
  CHECK(a["runs"][1]["read_fitted"].is_null());
  CHECK(a["write"]["fit"]["curve"][0].contains("ranks"));
  CHECK(s[1]["label"] == "other");
  CHECK(s[1]["read"].is_null());
  CHECK_THAT(s[1]["warnings"].dump(), Contains("restore not measured"));
  CHECK_THAT(s[1]["warnings"].dump(), Contains("write: every run has 1 ranks: no fit"));
}

TEST_CASE("checkpoint evidence of two backends becomes two goodput curves, the slower losing more",
          "[goodput][sizing][checkpoint]") {
  // fast: three runs at 1, 2 and 4 ranks; slow: one run at one rank, at a quarter of the rate.
  const auto reports = loaded(
      {checkpoint_report(1, 400e6, 800e6, "fast"), checkpoint_report(2, 780e6, 1500e6, "fast"),
       checkpoint_report(4, 1500e6, 2900e6, "fast"), checkpoint_report(1, 100e6, 200e6, "slow")});
  analysis::report_inputs in;
  in.reports = reports;
  analysis::sizing_request req;
  req.goodput.counts = {1024, 16384};
  const analysis::sizing_document d = analysis::make_sizing(in, req, nlohmann::json::array());
  REQUIRE(d.goodput.size() == 2);
  const auto& fast = d.goodput[0];
  const auto& slow = d.goodput[1];
  CHECK(fast.backend != slow.backend);
  CHECK(fast.workload == "llama3-8b");
  // The job sized is the profile's, not the --scale 0.5 load measured.
  CHECK(fast.checkpoint_bytes == Approx(112742891520.0));
  // The slowest rank as MLPerf Storage scores it: each run's throughput (its rate ÷ ranks here).
  REQUIRE(fast.write.rank_bytes_per_s);
  CHECK(*fast.write.rank_bytes_per_s == Approx(390e6)); // median of 400, 390, 375 MB/s
  CHECK(fast.write.bytes_per_s == Approx(1500e6));      // the best count's median
  CHECK(slow.write.bytes_per_s == Approx(100e6));
  REQUIRE(fast.rows.size() == 2);
  REQUIRE(slow.rows.size() == 2);
  for (std::size_t i = 0; i < 2; ++i) {
    REQUIRE(fast.rows[i].loss);
    REQUIRE(slow.rows[i].loss);
    CHECK(slow.rows[i].loss->total > fast.rows[i].loss->total);
    // At 1,024 ranks the slowest rank writes 1/1024 of the job: the aggregate sets the time.
    CHECK(fast.rows[i].write_s == Approx(112742891520.0 / 1500e6));
  }
  CHECK(slow.holds_max_loss_up_to < fast.holds_max_loss_up_to);
  CHECK(slow.holds_max_loss_up_to > 0);
  // The verdict beside the read path's, and thin evidence said where it is thin.
  const auto lines = render::checkpoint_summary_lines(d);
  CHECK_THAT(lines.back(),
             Contains("Goodput, llama3-8b on") && Contains("holds the 5 % loss up to"));
  CHECK_THAT(nlohmann::json(slow.warnings).dump(), Contains("thin evidence: one run"));
  CHECK_THAT(nlohmann::json(slow.warnings).dump(), Contains("every run at 1 rank"));
  CHECK(fast.warnings.empty());
  // The JSON carries one section per backend; a sizing without checkpoints has no key.
  CHECK(to_json(d)["goodput"].size() == 2);
  analysis::sizing_document none;
  CHECK_FALSE(to_json(none).contains("goodput"));
}

TEST_CASE("a checkpoint report from before the later keys is sized as a full one",
          "[sizing][checkpoint]") {
  // Reports written before --read-shift, --drop-caches, --dedupe-percent, --compress-percent
  // and --rules lack their keys.
  const auto full = checkpoint_report(1, 100e6, 200e6);
  auto older = full;
  for (const char* key : {"read_shift", "caches_dropped", "dedupe_percent", "compress_percent"})
    older["checkpoint"].erase(key);
  older.erase("mlperf_validity");
  for (const char* option :
       {"read-shift", "drop-caches", "dedupe-percent", "compress-percent", "rules"})
    older["config"].erase(option);
  const auto s = series_of(loaded({older}));
  REQUIRE(s.size() == 1);
  CHECK(s[0]["source"] == "dlsize checkpoint");
  CHECK(s[0]["label"] == "/ck (xfs)");
  CHECK(s[0]["runs"][0]["write_bytes_per_s"] == 100e6);
  CHECK(s[0]["runs"][0]["read_bytes_per_s"] == 200e6);
  CHECK(s[0]["runs"][0]["read_duration_s"] == 1.0);
  CHECK(s == series_of(loaded({full})));
}

TEST_CASE("two copies of one checkpoint run are refused, by run_id", "[sizing][checkpoint]") {
  auto a = checkpoint_report(1, 1, 1), b = checkpoint_report(2, 2, 2);
  a["run_id"] = b["run_id"] = "0123456789abcdef0123456789abcdef";
  CHECK_THAT(test::usage_error_message([&] {
               analysis::refuse_duplicate_runs(loaded({a, b}));
             }),
             Contains("r0.json, r1.json are one run"));
}

TEST_CASE("an incomplete checkpoint report is left out, with why", "[sizing][checkpoint]") {
  auto r = checkpoint_report(1, 1, 1);
  CHECK(analysis::checkpoint_exclusion(r).empty());
  r["status"] = "incomplete";
  r["reason"] = "interrupted";
  CHECK(analysis::checkpoint_exclusion(r) == "status incomplete: interrupted");
  CHECK(analysis::is_checkpoint_report(r));
  CHECK_FALSE(analysis::has_training_checkpoints(report::bench_report::fields_of(r, "r.json")));
  report::bench_report bench;
  CHECK_FALSE(analysis::has_training_checkpoints(bench));
  bench.checkpoints.emplace();
  bench.checkpoints->count = std::uint64_t{2};
  CHECK(analysis::has_training_checkpoints(bench));
  const auto p = analysis::sizing_paths(true, false);
  CHECK(p.first.measured);
  CHECK_FALSE(p.second.measured);
  CHECK_THAT(p.second.note, Contains("not measured"));
}

TEST_CASE("a checkpoint sweep runs dlsize checkpoint at every rank count through its launcher",
          "[sweep][checkpoint]") {
  const nlohmann::json j = {{"command", "checkpoint"},
                            {"checkpoint", {{"workload", "llama3-8b"}, {"dir", "ck"}}},
                            {"ranks", {1, 4}},
                            {"repeats", 2},
                            {"launcher", {"mpiexec", "-np", "{ranks}"}}};
  const auto c = sweep::parse_sweep_config(j, "sweep.json", {"workload"}, kCheckpointKeys);
  const auto p = sweep::expand_points(c);
  REQUIRE(p.size() == 4);
  CHECK(p[1].id == "np4-r1");
  CHECK(p[2].id == "np1-r2");
  CHECK(p[1].ranks == 4);
  CHECK(p[1].accelerators == 0);
  CHECK_FALSE(p[1].seeded);
  CHECK_FALSE(p[1].options.contains("seed"));
  const auto argv = sweep::point_argv(c, p[1], "dlsize", "r.json");
  CHECK(argv == std::vector<std::string>{"mpiexec", "-np", "4", "dlsize", "checkpoint", "--dir",
                                         "ck", "--workload", "llama3-8b", "--out", "r.json",
                                         "--quiet"});
}

TEST_CASE("a checkpoint sweep's config is refused key by key", "[sweep][checkpoint]") {
  nlohmann::json j = {{"command", "checkpoint"},
                      {"checkpoint", {{"workload", "llama3-8b"}, {"dir", "ck"}}},
                      {"ranks", {1, 2}}};
  CHECK_THAT(refused(j), Contains("ranks above 1 need a launcher"));
  j["ranks"] = {1};
  j["accelerators"] = {1};
  CHECK_THAT(refused(j), Contains("accelerators"));
  j.erase("accelerators");
  j["checkpoint"]["dataset"] = "d";
  CHECK_THAT(refused(j), Contains("not a dlsize checkpoint option"));
  j["checkpoint"].erase("dataset");
  j["checkpoint"].erase("dir");
  CHECK_THAT(refused(j), Contains("checkpoint.dir"));
  j["command"] = "plan";
  CHECK_THAT(refused(j), Contains("valid: bench (the default), checkpoint"));
  j["command"] = "checkpoint";
  j["checkpoint"]["dir"] = "ck";
  j["launcher"] = {"mpiexec", "-np", "{accelerators}"};
  CHECK_THAT(refused(j), Contains("no value in a checkpoint sweep"));
  CHECK_THAT(test::usage_error_message(
                 [&] { (void)sweep::parse_sweep_config(j, "sweep.json", {"workload"}); }),
             Contains("not available"));
}
