// Unit tests for src/report/bench_report.hpp: a report read typed and written again is the
// report read (typed fields, nulls, absent keys and unknown fields alike), typed fields read
// what the JSON says, and a wrong type names its key.
#include <cmath>
#include <filesystem>
#include <limits>
#include <string>

#include <catch2/catch.hpp>

#include "test_support.hpp"

#include "core/atomic_file.hpp"
#include "core/json_checks.hpp"
#include "core/json_input.hpp"
#include "report/bench_report.hpp"
#include "report/partial_report.hpp"

using namespace dlsize;
using Catch::Matchers::Contains;
using report::bench_report;

namespace {

nlohmann::json training_report() {
  return {
      {"schema", "dlsize.report/1"},
      {"kind", "bench"},
      {"created_at", "2026-12-03T09:00:00Z"},
      {"label", "nfs-a"},
      {"command_line", {"dlsize", "bench", "--accelerators", "4"}},
      {"config", {{"seed", 7}, {"accelerators", 4}, {"queue-depth", 16}}},
      {"workload",
       {{"name", "resnet50"},
        {"mean_sample_bytes", 114660.5},
        {"accelerator",
         {{"type", "h100"}, {"batch_size", 16}, {"compute_time_s", 0.02}, {"source", "profile"}}}}},
      {"dataset",
       {{"path", "/data/r50"},
        {"fs_type", "nfs4"},
        {"bytes", 1000000000},
        {"samples", 8000},
        {"client_ram_bytes", 8000000000},
        {"bytes_over_ram", 0.125},
        {"dataset_id", "00ff"}}},
      {"topology",
       {{"ranks", 2},
        {"nodes", 1},
        {"accelerators", 4},
        {"accelerators_per_rank", 2},
        {"ranks_per_node", nullptr},
        {"communicator", "mpi"}}},
      {"summary",
       {{"samples_per_s", 3000.0},
        {"read_bytes_per_s", 3.4e8},
        {"accelerator_utilization", nullptr},
        {"au_pass", false},
        {"au_threshold", 0.9},
        {"epochs", 2},
        {"steps_per_epoch", 125},
        {"data_wait", {{"count", 10}, {"p99_s", 0.004}, {"max_s", 0.01}}},
        {"cpu_utilization", {{"process", 0.5}, {"host", 0.25}, {"process_user_s", 1.0}}},
        {"cpu_s_per_gib", nullptr},
        {"steps_total", 500},
        {"a_later_figure", 500}}},
      {"io",
       {{"engine", "io_uring"},
        {"cache_mode", "direct"},
        {"max_read_rate", nullptr},
        {"latency", {{"p50_s", 0.001}, {"p99_s", 0.003}}},
        {"open_latency", nullptr},
        {"histogram", {{"buckets", nlohmann::json::array()}}}}},
      {"storage",
       {{"hit_ratio", nullptr},
        {"counter", "diskstats"},
        {"warm_epochs",
         {{"from_s", 12.5},
          {"read_bytes", 2e9},
          {"storage_read_bytes", 2.4e9},
          {"hit_ratio", 0.0},
          {"storage_per_read_byte", 1.2}}}}},
      {"cache_emulation",
       {{"client_ram_bytes", 4000000000},
        {"cgroup", {{"version", 2}, {"removed", true}}},
        {"limit_adjustments", 3}}},
      {"accelerators", {{{"id", 0}, {"device", "emulated:h100"}, {"steps", 250}}}},
      {"timeseries", {{{"t_s", 1.0}, {"read_bytes_per_s", 3e8}}}},
      {"warnings", {"a warning"}},
      {"status", "incomplete"},
      {"reason", "interrupted by signal 2"},
      {"a_field_of_a_later_version", {{"nested", true}}}};
}

} // namespace

TEST_CASE("a report read typed and written again equals the report read", "[bench_report]") {
  const nlohmann::json j = training_report();
  CHECK(bench_report::from_json(j).to_json() == j);
}

TEST_CASE("typed fields read what the report says", "[bench_report]") {
  const bench_report r = bench_report::from_json(training_report());
  CHECK_FALSE(r.complete());
  CHECK(r.status_text() == "incomplete");
  CHECK(r.reason.value_or("") == "interrupted by signal 2");
  CHECK(r.created_at.value_or("") == "2026-12-03T09:00:00Z");
  CHECK(r.label.value_or("") == "nfs-a");
  CHECK_FALSE(r.extra.contains("label"));
  CHECK(r.option("seed") == 7);
  CHECK(r.option("no-such-option").is_null());
  REQUIRE(r.workload);
  REQUIRE(r.workload->accelerator);
  CHECK(r.workload->accelerator->batch_size.value_or(0) == 16);
  CHECK(r.topology->accelerators_per_rank.value_or(0) == 2);
  // Null: present, without a value; absent: not present.
  CHECK(r.topology->ranks_per_node.present);
  CHECK_FALSE(r.topology->ranks_per_node.has_value());
  CHECK_FALSE(r.summary->files_per_s.present);
  CHECK(r.summary->data_wait->p99_s.value_or(0) == Approx(0.004));
  CHECK(r.summary->cpu_utilization->process.value_or(0) == Approx(0.5));
  CHECK(r.io->latency->p99_s.value_or(0) == Approx(0.003));
  CHECK(r.accelerators->front().device.value_or("") == "emulated:h100");
  CHECK(r.summary->steps_total.value_or(0) == 500);
  CHECK_FALSE(r.summary->extra.contains("steps_total"));
  // What is not typed rides in its section's extra.
  CHECK(r.summary->extra.at("a_later_figure") == 500);
  CHECK(r.summary->cpu_utilization->process_user_s.value_or(0) == 1.0);
  // The run's points are typed rows.
  CHECK_FALSE(r.extra.contains("timeseries"));
  REQUIRE(r.timeseries);
  CHECK(r.timeseries->front().read_bytes_per_s.value_or(0) == Approx(3e8));
  CHECK_FALSE(r.timeseries->front().device_busy.present);
  CHECK(r.extra.at("a_field_of_a_later_version").at("nested") == true);
}

TEST_CASE("a typed field set by a writer is written, a null one as null", "[bench_report]") {
  bench_report r;
  r.status = report::run_status::complete;
  report::summary_section s;
  s.read_bytes_per_s = 1e9;
  s.files_per_s = report::field<double>::null();
  r.summary = s;
  const nlohmann::json j = r.to_json();
  CHECK(j.at("schema") == "dlsize.report/1");
  CHECK(j.at("status") == "complete");
  CHECK(j.at("summary").at("read_bytes_per_s") == 1e9);
  CHECK(j.at("summary").at("files_per_s").is_null());
  CHECK_FALSE(j.at("summary").contains("samples_per_s"));
  CHECK_FALSE(j.contains("reason"));
}

TEST_CASE("a NaN or infinite figure of a report built in memory reads as null, as written",
          "[bench_report]") {
  nlohmann::json j = training_report();
  j["summary"]["accelerator_utilization"] = std::nan("");
  j["summary"]["read_bytes_per_s"] = std::numeric_limits<double>::infinity();
  const bench_report r = bench_report::from_json(j);
  CHECK(r.summary->accelerator_utilization.present);
  CHECK_FALSE(r.summary->accelerator_utilization.has_value());
  CHECK_FALSE(r.summary->read_bytes_per_s.has_value());
  CHECK(r.to_json().dump() == nlohmann::json::parse(j.dump()).dump());
}

TEST_CASE("the run's blocks keep their JSON types and nulls", "[bench_report]") {
  auto j = training_report();
  // One host's memory is a count; a sum over hosts a number: each comes back as it was.
  j["timeseries"] = {{{"t_s", 1.0}, {"available_bytes", 5}, {"page_cache_bytes", 2.5}},
                     {{"t_s", 2.0}, {"available_bytes", 6.0}, {"gpus", {{{"util", 1}}}}}};
  j["fs_separation"] = nullptr;
  j["epochs"] = {{{"epoch", 0}, {"samples", 8}, {"end_s", 0.0}, {"wall_s", 1.0}}};
  j["tool"] = {{"name", "dlsize"}, {"features", {{"mpi", false}, {"mpi_library", nullptr}}}};
  j["mlperf_validity"] = {{"rules_edition", "v3"}, {"rules", {{{"rule", "r"}}}}};
  const bench_report r = bench_report::from_json(j);
  CHECK(r.to_json().dump() == j.dump());
  REQUIRE(r.timeseries);
  CHECK(r.timeseries->at(0).available_bytes.value->whole);
  CHECK_FALSE(r.timeseries->at(1).available_bytes.value->whole);
  CHECK(r.fs_separation.present);
  CHECK_FALSE(r.fs_separation.has_value());
  CHECK(r.epochs->front().samples.value_or(0) == 8);
  CHECK(r.tool->features->mpi_library.present);
  CHECK(r.mlperf_validity->rules->front().rule.value_or("") == "r");
  j["tool"]["features"]["mpi"] = "no";
  CHECK_THAT(test::usage_error_message([&] { (void)bench_report::from_json(j); }),
             Contains("report: /tool/features/mpi: is a string. valid: true or false"));
}

TEST_CASE("a partial report is a typed report of the run so far", "[bench_report]") {
  const nlohmann::json cmd = {"dlsize", "bench"};
  const nlohmann::json j =
      report::partial_report(report::new_bench_report(cmd), {{"seed", 1}}, {2.0, 100, 4}, 5)
          .to_json();
  CHECK(j.at("schema") == "dlsize.report/1");
  CHECK(j.at("kind") == "bench");
  CHECK(j.at("partial") == true);
  CHECK(j.at("status") == "incomplete");
  CHECK(j.at("warnings") == nlohmann::json::array());
  CHECK(j.at("progress").at("read_bytes") == 100);
  CHECK(j.at("progress").at("read_bytes_per_s") == 50.0);
  CHECK(j.at("progress").at("samples_per_s") == 2.0);
  CHECK(j.at("tool").at("name") == "dlsize");
  CHECK(j.at("command_line") == cmd);
  CHECK(bench_report::from_json(j).to_json() == j);
  const auto stopped =
      report::stopped_before_run_report(report::new_bench_report(cmd), nullptr, "a hung read");
  CHECK(stopped.reason.value_or("") == "stopped before the run: a hung read");
  CHECK(stopped.progress->elapsed_s.value_or(1) == 0.0);
}

TEST_CASE("a typed key of the wrong type is refused, naming the key", "[bench_report]") {
  auto j = training_report();
  j["summary"]["read_bytes_per_s"] = "fast";
  CHECK_THAT(test::usage_error_message([&] { (void)bench_report::from_json(j); }),
             Contains("report: /summary/read_bytes_per_s: is a string. valid: a number"));
  j = training_report();
  j["topology"]["accelerators"] = -4;
  CHECK_THAT(test::usage_error_message([&] { (void)bench_report::from_json(j, "r.json"); }),
             Contains("r.json: /topology/accelerators: -4 is out of range. valid: a whole "
                      "number >= 0"));
  j = training_report();
  j["status"] = "done";
  CHECK_THAT(test::usage_error_message([&] { (void)bench_report::from_json(j); }),
             Contains("/status: \"done\" is not valid. valid: complete or incomplete"));
  j = training_report();
  j["accelerators"][0]["device"] = 3;
  CHECK_THAT(test::usage_error_message([&] { (void)bench_report::from_json(j); }),
             Contains("/accelerators/0/device: is a number. valid: a string"));
  j = training_report();
  j["warnings"] = {"fine", 7};
  CHECK_THAT(test::usage_error_message([&] { (void)bench_report::from_json(j); }),
             Contains("/warnings/1: is a number. valid: a string"));
}

TEST_CASE("from_json and check_report_fields apply one field list: types, ranges and shapes",
          "[bench_report]") {
  // Each case fails both ways alike, with the same message.
  const auto both = [](const nlohmann::json& j) {
    const std::string typed =
        test::usage_error_message([&] { (void)bench_report::from_json(j, "f.json"); });
    const std::string checked =
        test::usage_error_message([&] { report::check_report_fields(j, "f.json"); });
    CHECK(typed == checked);
    return typed;
  };
  auto j = training_report();
  j["summary"]["accelerator_utilization"] = 1.5;
  CHECK_THAT(both(j), Contains("f.json: /summary/accelerator_utilization: 1.5 is out of range. "
                               "valid: a share from 0 to 1"));
  j = training_report();
  j["storage"]["read_bytes_per_s"] = -1;
  CHECK_THAT(both(j), Contains("f.json: /storage/read_bytes_per_s: -1 is out of range. valid: "
                               "a number >= 0"));
  j = training_report();
  j["summary"] = 7;
  CHECK_THAT(both(j), Contains("f.json: /summary: is a number. valid: an object"));
  j = training_report();
  j["system"] = {{"hosts", "one"}};
  CHECK_THAT(both(j), Contains("f.json: /system/hosts: is a string. valid: an array"));
  j = training_report();
  j["timeseries"] = nlohmann::json::object();
  CHECK_THAT(both(j), Contains("f.json: /timeseries: is an object. valid: an array"));
  j = training_report();
  j["io"]["histogram"] = 3;
  CHECK_THAT(both(j), Contains("f.json: /io/histogram: is a number. valid: an object"));
  // A null figure or section is "not measured" (a stalled run's io.reader_time); a count written
  // as 2.0 is a count.
  j = training_report();
  j["summary"]["wall_s"] = nullptr;
  j["io"]["reader_time"] = nullptr;
  j["timeseries"] = nullptr;
  j["topology"]["ranks"] = 2.0;
  CHECK(both(j) == "<no exception>");
}

TEST_CASE("a document that is not a bench report is refused", "[bench_report]") {
  auto j = training_report();
  j["schema"] = "dlsize.report/2";
  CHECK_THAT(test::usage_error_message([&] { (void)bench_report::from_json(j); }),
             Contains("not a dlsize bench report"));
  CHECK_FALSE(report::is_bench_report(nlohmann::json::array()));
}

TEST_CASE("every bench report in results/ survives the round trip", "[bench_report]") {
  std::size_t n = 0;
  for (const auto& e : std::filesystem::recursive_directory_iterator(
           std::filesystem::path(DLSIZE_SOURCE_DIR) / "results")) {
    if (e.path().extension() != ".json")
      continue;
    const auto j = core::read_json_file(e.path(), core::kReportJson);
    if (!report::is_bench_report(j))
      continue;
    INFO(e.path().string());
    CHECK(bench_report::from_json(j).to_json() == j);
    ++n;
  }
  CHECK(n >= 3);
}

TEST_CASE("a report's label and creation time round-trip, and a report without a label has none",
          "[bench_report]") {
  nlohmann::json j = training_report();
  CHECK(bench_report::from_json(j).to_json().at("label") == "nfs-a");
  j.erase("label");
  const bench_report r = bench_report::from_json(j);
  CHECK_FALSE(r.label.present);
  CHECK_FALSE(r.to_json().contains("label"));
  j["label"] = 5;
  CHECK_THAT(test::usage_error_message([&] { bench_report::from_json(j, "f.json"); }),
             Contains("f.json: /label: is a number. valid: a string"));
}

TEST_CASE(
    "a cache sweep's figures are typed: client RAM and the warm epochs' storage per byte read",
    "[bench_report]") {
  nlohmann::json j = training_report();
  const bench_report r = bench_report::from_json(j);
  REQUIRE(r.cache_emulation);
  CHECK(r.cache_emulation->client_ram_bytes.value_or(0) == 4000000000);
  REQUIRE(r.cache_emulation->cgroup);
  CHECK(r.cache_emulation->cgroup->version.value_or(0) == 2);
  REQUIRE(r.storage->warm_epochs.has_value());
  CHECK(r.storage->warm_epochs->storage_per_read_byte.value_or(0) == Approx(1.2));
  CHECK(r.storage->warm_epochs->from_s.value_or(0) == 12.5);
  CHECK(r.to_json() == j);
  // One epoch: warm_epochs is null, and stays null; a run without --client-ram has none.
  j["storage"]["warm_epochs"] = nullptr;
  j.erase("cache_emulation");
  const bench_report one = bench_report::from_json(j);
  CHECK(one.storage->warm_epochs.present);
  CHECK_FALSE(one.storage->warm_epochs.has_value());
  CHECK_FALSE(one.cache_emulation);
  CHECK(one.to_json() == j);
  j = training_report();
  j["storage"]["warm_epochs"]["storage_per_read_byte"] = -0.5;
  CHECK_THAT(test::usage_error_message([&] { (void)bench_report::from_json(j, "f.json"); }),
             Contains("f.json: /storage/warm_epochs/storage_per_read_byte: -0.5 is out of range. "
                      "valid: a number >= 0"));
  j = training_report();
  j["cache_emulation"]["client_ram_bytes"] = "8G";
  CHECK_THAT(test::usage_error_message([&] { (void)bench_report::from_json(j, "f.json"); }),
             Contains("f.json: /cache_emulation/client_ram_bytes: is a string. valid: a number"));
}

TEST_CASE("fields_of reads the typed fields a checkpoint report shares with bench's",
          "[bench_report]") {
  const nlohmann::json j = {{"schema", "dlsize.report/1"},
                            {"kind", "checkpoint"},
                            {"run_id", "ab"},
                            {"label", "ck"},
                            {"status", "complete"},
                            {"checkpoint", {{"ranks", 2}}}};
  const bench_report r = bench_report::fields_of(j, "ck.json");
  CHECK(r.label.value_or("") == "ck");
  CHECK(r.run_id.value_or("") == "ab");
  CHECK(r.complete());
  CHECK_FALSE(r.workload);
}
