// Unit tests for src/report/run_identity: the load a report ran (workload, accelerators,
// topology, dataset, settings) is read from its typed fields, a checkpoint report's included.
#include <string>

#include <catch2/catch.hpp>

#include "analysis/report_set.hpp"
#include "report/bench_report.hpp"
#include "report/run_identity.hpp"

using namespace dlsize;
using report::bench_report;

namespace {

nlohmann::json bench_json() {
  return {{"schema", "dlsize.report/1"},
          {"kind", "bench"},
          {"config", {{"seed", 7}, {"queue-depth", 16}, {"out", "a.json"}}},
          {"workload", {{"name", "resnet50"}, {"accelerator", {{"type", "h100"}}}}},
          {"dataset", {{"bytes", 2000}, {"samples", 10}, {"files", 2}, {"records_per_file", 5}}},
          {"topology",
           {{"ranks", 4},
            {"nodes", 2},
            {"accelerators", 8},
            {"accelerators_per_rank", 2},
            {"ranks_per_node", 2}}}};
}

} // namespace

TEST_CASE("the run identity reads a bench report's typed workload, topology and dataset",
          "[run_identity]") {
  const bench_report r = bench_report::from_json(bench_json());
  CHECK(report::workload_of(r) == "resnet50");
  CHECK(report::accelerator_type_of(r) == "h100");
  CHECK(report::accelerators_of(r) == 8);
  CHECK(report::topology_label(r) == "2 nodes × 2 ranks × 2 accelerators");
  CHECK(report::dataset_shape(r) == "10 samples in 2 files of 5 records, 200 B per sample");
  nlohmann::json j = bench_json();
  j["topology"]["ranks_per_node"] = nullptr;
  j["topology"]["declared"] = {{"nodes", 2}, {"accelerators_per_node", 4}};
  CHECK(report::topology_label(bench_report::from_json(j)) ==
        "2 nodes × 4 uneven ranks × 2 accelerators, declared 2 × 4 on one host");
  j["workload"].erase("accelerator");
  CHECK(report::accelerator_type_of(bench_report::from_json(j)) == "none");
}

TEST_CASE("setting differences compare the typed configs, leaving out the keys that may differ",
          "[run_identity]") {
  nlohmann::json j = bench_json();
  j["config"]["queue-depth"] = 64;
  j["config"]["out"] = "b.json";
  const auto d = report::setting_differences(bench_report::from_json(bench_json()), "a.json",
                                             bench_report::from_json(j), "b.json", {"out"});
  REQUIRE(d.size() == 1);
  CHECK(d[0] == "queue-depth differs: 16 in a.json, 64 in b.json");
}

TEST_CASE("every loaded report has typed fields, a checkpoint report's included",
          "[run_identity]") {
  const auto ck = analysis::loaded_report::of("ck.json", {{"schema", "dlsize.report/1"},
                                                          {"kind", "checkpoint"},
                                                          {"run_id", "ab"},
                                                          {"config", {{"seed", 3}}},
                                                          {"workload", {{"name", "llama3-8b"}}}});
  CHECK_FALSE(ck.typed);
  CHECK(report::workload_of(ck.fields) == "llama3-8b");
  CHECK(ck.fields.option("seed") == 3);
  const auto b = analysis::loaded_report::of("b.json", bench_json());
  REQUIRE(b.typed);
  CHECK(report::workload_of(b.fields) == "resnet50");
}
