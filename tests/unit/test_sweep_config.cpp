// Unit tests for src/sweep/sweep_config (and the index it opens): configs checked key by key,
// points expanded with their seeds, commands built without a shell, an index that resumes.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "test_support.hpp"

#include "sweep/sweep_config.hpp"
#include "sweep/sweep_index.hpp"

using namespace dlsize;
using Catch::Matchers::Contains;

namespace {

const std::vector<std::string> kBenchKeys = {
    "workload",   "dataset",      "generate",      "accelerator", "accelerators",
    "batch-size", "compute-time", "epochs",        "cache",       "seed",
    "out",        "quiet",        "max-read-rate", "sync-steps",  "accelerators-per-rank",
    "label"};

nlohmann::json base() {
  return {{"bench",
           {{"workload", "resnet50"},
            {"dataset", "ds"},
            {"accelerator", "emulated:h100"},
            {"epochs", 1}}},
          {"accelerators", {1, 2, 4}}};
}

std::string refused(const nlohmann::json& j) {
  return test::usage_error_message(
      [&] { (void)sweep::parse_sweep_config(j, "sweep.json", kBenchKeys); });
}

} // namespace

TEST_CASE("sweep points repeat the same seeds at every count, repeats outermost", "[sweep]") {
  auto j = base();
  j["repeats"] = 2;
  j["seed"] = 7;
  const auto c = sweep::parse_sweep_config(j, "sweep.json", kBenchKeys);
  const auto p = sweep::expand_points(c);
  REQUIRE(p.size() == 6);
  CHECK(p[0].id == "n1-r1");
  CHECK(p[2].id == "n4-r1");
  CHECK(p[3].id == "n1-r2");
  CHECK(p[0].seed == 7);
  CHECK(p[2].seed == 7);
  CHECK(p[3].seed == 8);
  CHECK(p[4].accelerators == 2);
  CHECK(p[4].seed == 8);
  const auto argv = sweep::point_argv(c, p[4], "dlsize", "r.json");
  for (const auto& [option, value] : {std::pair{"--accelerators", "2"}, std::pair{"--seed", "8"}}) {
    const auto at = std::find(argv.begin(), argv.end(), option);
    REQUIRE(at + 1 < argv.end());
    CHECK(*(at + 1) == value);
  }
  j["seed-policy"] = "fixed";
  const auto fixed = sweep::expand_points(sweep::parse_sweep_config(j, "sweep.json", kBenchKeys));
  CHECK(fixed[5].seed == 7);
}

TEST_CASE("sweep points cross dataset variants and cache modes", "[sweep]") {
  auto j = base();
  j["bench"].erase("dataset");
  j["repeats"] = 1;
  j["datasets"] = {{{"name", "small"}, {"dataset", "ds1"}},
                   {{"name", "large"}, {"dataset", "ds4"}, {"generate", "4GiB"}}};
  j["cache"] = {"direct", "buffered"};
  const auto p = sweep::expand_points(sweep::parse_sweep_config(j, "sweep.json", kBenchKeys));
  REQUIRE(p.size() == 12);
  CHECK(p[0].id == "n1-small-direct-r1");
  CHECK(p[3].id == "n1-small-buffered-r1");
  CHECK(p[6].id == "n1-large-direct-r1");
  CHECK(p[6].options["dataset"] == "ds4");
  CHECK(p[6].options["generate"] == "4GiB");
  CHECK(p[3].cache == io::cache_mode::buffered);
  CHECK_FALSE(p[3].options.contains("cache"));
}

TEST_CASE("a point's command is the launcher, then dlsize bench with its options, no shell",
          "[sweep]") {
  auto j = base();
  j["bench"]["sync-steps"] = true;
  j["bench"]["dataset"] =
      "data {ranks} here"; // variables are substituted in launcher arguments only
  j["launcher"] = {"mpirun", "-np", "{ranks}", "--tag={point}"};
  j["accelerators-per-rank"] = 2;
  j["accelerators"] = {2, 4};
  const auto c = sweep::parse_sweep_config(j, "sweep.json", kBenchKeys);
  const auto p = sweep::expand_points(c);
  const auto argv = sweep::point_argv(c, p[1], "build/dlsize", "out/reports/n4-r1.json");
  const std::vector<std::string> want = {"mpirun",
                                         "-np",
                                         "2",
                                         "--tag=n4-r1",
                                         "build/dlsize",
                                         "bench",
                                         "--accelerator",
                                         "emulated:h100",
                                         "--accelerators",
                                         "4",
                                         "--accelerators-per-rank",
                                         "2",
                                         "--dataset",
                                         "data {ranks} here",
                                         "--epochs",
                                         "1",
                                         "--seed",
                                         "1",
                                         "--sync-steps",
                                         "--workload",
                                         "resnet50",
                                         "--out",
                                         "out/reports/n4-r1.json",
                                         "--quiet"};
  CHECK(argv == want);
  CHECK(p[1].ranks == 2);
}

TEST_CASE("a sweep passes the backend's label to every point like any bench option",
          "[sweep][label]") {
  auto j = base();
  j["bench"]["label"] = "nfs-a";
  const auto c = sweep::parse_sweep_config(j, "sweep.json", kBenchKeys);
  const auto p = sweep::expand_points(c);
  const auto argv = sweep::point_argv(c, p[0], "dlsize", "r.json");
  const auto at = std::find(argv.begin(), argv.end(), "--label");
  REQUIRE(at != argv.end());
  CHECK(*(at + 1) == "nfs-a");
}

TEST_CASE("sweep configs are refused with the file, key and what is valid", "[sweep]") {
  auto j = base();
  j["repeat"] = 3;
  CHECK_THAT(refused(j), Contains("sweep.json: repeat: unknown key"));
  j = base();
  j["bench"]["out"] = "x.json";
  CHECK_THAT(refused(j), Contains("bench.out: set by the sweep itself"));
  j = base();
  j["bench"]["seed"] = 3;
  CHECK_THAT(refused(j), Contains("bench.seed"));
  j = base();
  j["bench"]["queue-deep"] = 3;
  CHECK_THAT(refused(j), Contains("not a dlsize bench option. valid: workload"));
  j = base();
  j["accelerators"] = {1, 2, 2};
  CHECK_THAT(refused(j), Contains("listed twice"));
  j = base();
  j["accelerators"] = nlohmann::json::array();
  CHECK_THAT(refused(j), Contains("non-empty array"));
  j = base();
  j["launcher"] = {"srun", "-n", "{tasks}"};
  CHECK_THAT(refused(j), Contains("unknown variable. valid: {ranks}"));
  j = base();
  j["accelerators-per-rank"] = 2;
  CHECK_THAT(refused(j), Contains("needs a launcher"));
  j["launcher"] = {"mpirun", "-np", "{ranks}"};
  CHECK_THAT(refused(j), Contains("1 accelerators do not split into ranks of 2"));
  j = base();
  j["seed-policy"] = "random";
  CHECK_THAT(refused(j), Contains("valid: per-repeat"));
  j = base();
  j["bench"].erase("dataset");
  CHECK_THAT(refused(j), Contains("bench.dataset: missing"));
  j = base();
  j["cache"] = {"direct", "cached"};
  CHECK_THAT(refused(j), Contains("valid: direct, buffered, uncached"));
}

TEST_CASE("a sweep index resumes, refuses another config and foreign folders", "[sweep]") {
  test::temp_dir tmp("dlsize-sweep");
  const auto dir = tmp.path / "sweep";
  const auto c = sweep::parse_sweep_config(base(), "sweep.json", kBenchKeys);
  const auto points = sweep::expand_points(c);
  {
    sweep::sweep_index index(dir, c, points, nlohmann::json::array({"dlsize", "sweep"}));
    REQUIRE(index.size() == 9);
    index.begin_attempt(0);
    CHECK(index.point(0).report == "reports/n1-r1.json");
    std::ofstream(dir / "reports/n1-r1.json")
        << R"({"schema": "dlsize.report/1", "kind": "bench", "status": "complete"})";
    index.point(0).status = sweep::point_status::done;
    index.begin_attempt(1);
    index.point(1).status = sweep::point_status::failed;
    index.save();
    // A second sweep in the same folder at the same time is refused.
    CHECK_THAT(test::usage_error_message([&] { sweep::sweep_index again(dir, c, points, {}); }),
               Contains("another dlsize sweep is running"));
  }
  sweep::sweep_index resumed(dir, c, points, {});
  CHECK(resumed.done(0));
  CHECK_FALSE(resumed.done(1));
  resumed.begin_attempt(1);
  CHECK(resumed.point(1).report == "reports/n2-r1.try2.json");
  sweep::sweep_document two;
  two.points = {resumed.point(0), resumed.point(1)};
  const auto done = sweep::done_reports(two);
  CHECK(done == std::vector<std::string>{"reports/n1-r1.json"});

  auto other = base();
  other["bench"]["epochs"] = 2;
  const auto c2 = sweep::parse_sweep_config(other, "sweep.json", kBenchKeys);
  const auto dir2 = tmp.path / "other";
  { sweep::sweep_index first(dir2, c, points, {}); }
  CHECK_THAT(test::usage_error_message([&] { sweep::sweep_index x(dir2, c2, points, {}); }),
             Contains("another config ('bench' differs)"));
  const auto foreign = tmp.path / "foreign";
  std::filesystem::create_directories(foreign);
  std::ofstream(foreign / "notes.txt") << "mine";
  CHECK_THAT(test::usage_error_message([&] { sweep::sweep_index x(foreign, c, points, {}); }),
             Contains("holds files but no sweep index"));
}
