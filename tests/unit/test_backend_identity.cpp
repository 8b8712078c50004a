// Unit tests for src/report/backend_identity, src/config/label and src/report/run_id: the label
// rule, the identity that compare and size group runs by, duplicate runs by run_id.
#include <set>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include "sizing_fixture.hpp"
#include "test_support.hpp"

#include "analysis/compare.hpp"
#include "analysis/report_set.hpp"
#include "analysis/sizing_report.hpp"
#include "config/label.hpp"
#include "render/compare_render.hpp"
#include "render/sizing_render.hpp"
#include "report/backend_identity.hpp"
#include "report/report_io.hpp"
#include "report/run_id.hpp"

using namespace dlsize;
using Catch::Matchers::Contains;
using test::sizing_json;
using test::training_summary;

namespace {

// The typed report bench writes and compare and size read (report/bench_report.hpp).
report::bench_report typed(const nlohmann::json& r) {
  return report::bench_report::fields_of(r, "report");
}

report::backend_identity identity_of(const nlohmann::json& r) {
  return report::backend_identity_of(typed(r));
}

// storage.io_limits rows as a report holds them, typed.
std::vector<telemetry::io_limit> limits_of(const nlohmann::json& rows) {
  return typed({{"storage", {{"io_limits", rows}}}}).storage->io_limits.value();
}

// The backend identity's key of base once change has edited a copy of it.
template <class Change> std::string key_with(nlohmann::json r, Change change) {
  change(r);
  return identity_of(r).key();
}

// A complete training report of n accelerators at /data on ext4, labelled `label` ("": none).
analysis::loaded_report run_at(const std::string& file, const std::string& label, double n,
                               int seed) {
  const double au = std::min(1.0, 100e6 / (n * 40e6));
  nlohmann::json r = {
      {"schema", report::kReportSchema},
      {"kind", "bench"},
      {"run_id", report::new_run_id()},
      {"status", "complete"},
      {"config",
       {{"seed", seed},
        {"accelerators", n},
        {"dataset", "/data"},
        {"label", label.empty() ? nlohmann::json(nullptr) : nlohmann::json(label)}}},
      {"workload",
       {{"name", "resnet50"}, {"mean_sample_bytes", 114660}, {"accelerator", {{"type", "h100"}}}}},
      {"topology", {{"accelerators", n}, {"nodes", 1}}},
      {"dataset",
       {{"path", "/data"},
        {"fs_type", "ext4"},
        {"device", "/dev/vda1"},
        {"samples", 1000},
        {"bytes", 1e9},
        {"client_ram_bytes", 8e9}}},
      {"io", {{"max_read_rate", nullptr}, {"cache_mode", "direct"}}},
      {"storage", {{"hit_ratio", 0.0}}},
      {"summary", training_summary(n, au, std::min(n * 40e6, 100e6) * (1 + 0.002 * seed))}};
  r["backend"] = report::section_to_json(report::backend_of(typed(r)));
  return analysis::loaded_report::of(file, r);
}

} // namespace

TEST_CASE("a label is 1 to 64 letters, digits, dots, underscores or dashes", "[label]") {
  for (const std::string& ok :
       std::vector<std::string>{"a", "nfs-a", "weka_8nodes.v2", std::string(64, 'x')})
    CHECK(test::usage_error_message([&] { config::check_label(ok, "--label"); }) ==
          "<no exception>");
  for (const std::string& bad :
       std::vector<std::string>{"", "has space", "a/b", "é", std::string(65, 'x'), "a;rm"}) {
    const std::string msg = test::usage_error_message([&] { config::check_label(bad, "--label"); });
    CHECK_THAT(msg, Contains("--label: '" + bad + "' is not a valid label"));
    CHECK_THAT(msg, Contains("1 to 64 letters, digits, '.', '_' or '-'"));
  }
}

TEST_CASE("run ids are 32 hex digits and differ from run to run", "[label]") {
  std::set<std::string> seen;
  for (int i = 0; i < 100; ++i) {
    const std::string id = report::new_run_id();
    CHECK(id.size() == 32);
    CHECK(id.find_first_not_of("0123456789abcdef") == std::string::npos);
    seen.insert(id);
  }
  CHECK(seen.size() == 100);
}

TEST_CASE("the backend identity holds the label and every fact that makes another backend",
          "[label]") {
  const auto base = run_at("a.json", "", 1, 1).report;
  const auto id = identity_of(base);
  CHECK(id.label == "/data (ext4)");
  CHECK(id.display_name() == "/data (ext4)");
  CHECK(id.mount_source == "/dev/vda1"); // older reports: dataset.device
  CHECK(report::backend_of(typed(base)).label_given.value_or(true) == false);
  const std::vector<std::string> keys = {
      id.key(),
      key_with(base, [](nlohmann::json& r) { r["config"]["label"] = "nfs-a"; }),
      key_with(base, [](nlohmann::json& r) { r["dataset"]["fs_type"] = "xfs"; }),
      key_with(base,
               [](nlohmann::json& r) {
                 r["storage"]["mount"] = {{"source", "srv:/export"}};
               }),
      key_with(base,
               [](nlohmann::json& r) {
                 r["storage"]["device"] = {{"name", "sda"}};
               }),
      key_with(base,
               [](nlohmann::json& r) {
                 r["storage"]["io_limits"] = {{{"device", "8:0"}, {"rbps", 1e6}}};
               }),
      key_with(base, [](nlohmann::json& r) { r["io"]["max_read_rate"] = 9e7; }),
      key_with(base, [](nlohmann::json& r) { r["io"]["cache_mode"] = "buffered"; }),
  };
  CHECK(std::set<std::string>(keys.begin(), keys.end()).size() == keys.size());
  nlohmann::json capped = base;
  capped["config"]["label"] = "nfs-a";
  capped["io"]["max_read_rate"] = 9e7;
  CHECK(identity_of(capped).display_name() == "nfs-a, capped at 90.0 MB/s");
}

TEST_CASE("an S3 backend's identity holds its object store: endpoints, bucket, region, "
          "addressing and server",
          "[label]") {
  nlohmann::json base = run_at("a.json", "", 1, 1).report;
  base["dataset"]["path"] = "s3://data/r50";
  base["dataset"]["fs_type"] = "s3";
  base["storage"]["s3"] = {{"endpoints", {"http://10.0.0.1:7480"}},
                           {"bucket", "data"},
                           {"prefix", "r50"},
                           {"region", "us-east-1"},
                           {"addressing", "path"},
                           {"server", "Ceph"},
                           {"requests", 10}};
  const auto id = identity_of(base);
  CHECK(id.label == "s3://data/r50 (s3)");
  CHECK(id.object_store ==
        "endpoints=http://10.0.0.1:7480;bucket=data;region=us-east-1;addressing=path");
  CHECK(id.server == "Ceph");
  const std::vector<std::string> keys = {
      id.key(),
      key_with(
          base,
          [](nlohmann::json& r) { r["storage"]["s3"]["endpoints"] = {"http://10.0.0.2:7480"}; }),
      key_with(base, [](nlohmann::json& r) { r["storage"]["s3"]["bucket"] = "other"; }),
      key_with(base, [](nlohmann::json& r) { r["storage"]["s3"]["region"] = "eu-west-3"; }),
      key_with(base, [](nlohmann::json& r) { r["storage"]["s3"]["addressing"] = "virtual"; }),
      key_with(base, [](nlohmann::json& r) { r["storage"]["s3"]["server"] = "MinIO"; }),
      key_with(base, [](nlohmann::json& r) { r["storage"].erase("s3"); }),
  };
  CHECK(std::set<std::string>(keys.begin(), keys.end()).size() == keys.size());
  // A file report's key is as before: nothing of S3 in it.
  CHECK(identity_of(run_at("a.json", "", 1, 1).report).key().find("s3=") == std::string::npos);
}

TEST_CASE("backends of one name are told apart by the facts that differ", "[label]") {
  auto a = identity_of(run_at("a", "", 1, 1).report);
  auto b = a;
  b.cache_mode = "buffered";
  auto c = a;
  const auto names = report::distinct_names({a, b, c});
  CHECK(names[0] == "/data (ext4), cache direct");
  CHECK(names[1] == "/data (ext4), cache buffered");
  CHECK(names[2] == "/data (ext4), cache direct");
}

TEST_CASE("two labelled backends at one path are two backends in compare", "[label]") {
  const auto c = analysis::compare_reports({run_at("a1", "a", 4, 1), run_at("b1", "b", 4, 1),
                                            run_at("a2", "a", 4, 2), run_at("b2", "b", 4, 2)});
  const auto& bs = c.head().backends;
  REQUIRE(bs.size() == 2);
  CHECK(bs[0].backend == "a");
  CHECK(bs[0].label == "a");
  CHECK(bs[0].reports == std::vector<std::string>{"a1", "a2"});
  CHECK(bs[1].backend == "b");
  CHECK_THAT(bs[1].identity, Contains("label=b;fs=ext4"));
  CHECK_THAT(render::compare_markdown(c), Contains("| a (2 runs) | b (2 runs) |"));
}

TEST_CASE("two labelled backends at one path are two series in size", "[label]") {
  analysis::report_inputs in;
  for (int seed = 1; seed <= 3; ++seed)
    for (double n : {1, 2, 3, 4})
      for (const char* label : {"a", "b"})
        in.reports.push_back(run_at(fmt::format("{}-n{}-r{}", label, n, seed), label, n, seed));
  const auto z = sizing_json(in, {}, {"dlsize", "size"});
  REQUIRE(z["series"].size() == 2);
  CHECK(z["series"][0]["backend"] == "a");
  CHECK(z["series"][1]["backend"] == "b");
  CHECK(z["series"][0]["runs"].size() == 12);
  CHECK_THAT(render::sizing_markdown(analysis::make_sizing(in, {}, {"dlsize", "size"})),
             Contains("resnet50 on h100, b, direct I/O"));
  // Without labels the same reports are one backend, as they were before labels existed.
  for (auto& r : in.reports) {
    r.report["config"]["label"] = nullptr;
    r.report.erase("backend");
  }
  CHECK(sizing_json(in, {}, {"dlsize", "size"})["series"].size() == 1);
}

TEST_CASE("reports of one run_id are named as copies, not repeats", "[label]") {
  auto a = run_at("a.json", "", 4, 1);
  auto copy = a;
  copy.file = "copy.json";
  const auto b = run_at("b.json", "", 4, 2);
  const auto w = analysis::duplicate_runs({a, b, copy});
  REQUIRE(w.size() == 1);
  CHECK_THAT(w[0], Contains("a.json, copy.json are one run (run_id " +
                            a.report["run_id"].get<std::string>() + ")"));
  CHECK(analysis::duplicate_runs({a, b}).empty());
  // Refused, not warned: a copy counted as a repeat narrows every interval.
  CHECK_THAT(test::usage_error_message([&] {
               (void)analysis::compare_reports({a, copy});
             }),
             Contains("copies, not repeats"));
  analysis::report_inputs in;
  in.reports = {a, copy};
  CHECK_THAT(test::usage_error_message([&] { (void)analysis::make_sizing(in, {}, {}); }),
             Contains("copy.json"));
  // Without a run_id (older reports) the content decides.
  a.report.erase("run_id");
  copy.report.erase("run_id");
  CHECK(analysis::duplicate_runs({a, copy}).size() == 1);
}

TEST_CASE("io limits read as a person writes them, not as JSON", "[label]") {
  const nlohmann::json limits = {
      {{"device", "7:0"}, {"rbps", 500000000}, {"riops", nullptr}, {"wbps", nullptr}},
      {{"device", "8:0"}, {"riops", 2000}, {"wbps", 1.5e8}}};
  CHECK(report::io_limits_text(limits_of(limits)) ==
        "read cap 500 MB/s on 7:0, write cap 150 MB/s on 8:0, 2000 read IOPS on 8:0");
  CHECK(report::io_limits_text({}).empty());
  auto a = identity_of(run_at("a", "", 1, 1).report);
  auto b = a;
  b.io_limits = report::io_limits_json(limits_of(limits)).dump();
  b.io_limits_text = report::io_limits_text(limits_of(limits));
  const auto names = report::distinct_names({a, b});
  CHECK(names[0] == "/data (ext4), io limits none");
  CHECK(names[1] == "/data (ext4), io limits read cap 500 MB/s on 7:0, write cap 150 MB/s on "
                    "8:0, 2000 read IOPS on 8:0");
}
