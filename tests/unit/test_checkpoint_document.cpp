// Unit tests for the typed checkpoint report (report/checkpoint_document.hpp): a real report
// read by from_json and written by to_json is the same bytes; the parts a folder run leaves out
// (a bucket, a failure, a reason) survive the trip too, and the keys older reports lack stay
// absent; a bad report is refused naming the key; and render/checkpoint_summary prints the
// typed value as dlsize checkpoint always has.
//
// data/checkpoint_report.json was written by dlsize checkpoint before the report was typed:
//   dlsize checkpoint --workload llama3-8b --scale 0.00005 --dir ckpt --writes 2 --reads 1
//     --label ckpt-fixture --out checkpoint_report.json
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "render/checkpoint_summary.hpp"
#include "report/checkpoint_document.hpp"
#include "test_support.hpp"

using namespace dlsize;
using Catch::Matchers::StartsWith;

namespace {

std::string fixture_text() {
  const auto path =
      std::filesystem::path(DLSIZE_SOURCE_DIR) / "tests/unit/data/checkpoint_report.json";
  std::ifstream in(path);
  REQUIRE(in);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

report::checkpoint_document fixture() {
  return report::checkpoint_document_from_json(nlohmann::json::parse(fixture_text()), "fixture");
}

// What dlsize checkpoint writes for a document: its JSON with an indent of 2 and a newline.
std::string written(const report::checkpoint_document& d) {
  return report::to_json(d).dump(2) + "\n";
}

// A failed run into a bucket: the parts a folder run leaves out.
report::checkpoint_document failed_bucket_run() {
  report::checkpoint_document d = fixture();
  report::checkpoint_s3_section s3;
  s3.endpoints = {"http://127.0.0.1:7480"};
  s3.bucket = "ckpt";
  s3.prefix = "run";
  s3.region = "us-east-1";
  s3.addressing = "path";
  s3.server = "Ceph";
  s3.part_size = 8u << 20;
  s3.parts_in_flight = 4;
  s3.write.requests = 12;
  s3.write.retries_by_cause = nlohmann::json{{"503", 2}};
  s3.read.requests = 3;
  s3.upload_time = report::latency_summary_of(d.checkpoint.write.latency);
  d.checkpoint.s3 = s3;
  d.checkpoint.cache_mode = "none";
  d.checkpoint.failure = report::checkpoint_failure{"read", 2, 1, std::nullopt, "EIO"};
  d.checkpoint.read.runs.clear();
  d.checkpoint.read.count = 0;
  d.status = report::run_status::incomplete;
  d.reason = "failed: reading checkpoint 2: rank 1: EIO";
  d.label.reset();
  d.fs_separation.reset();
  d.warnings = {"--no-verify: the restored blocks were not checked"};
  return d;
}

} // namespace

TEST_CASE("a checkpoint report read and written again is the same bytes", "[checkpoint]") {
  const std::string text = fixture_text();
  const report::checkpoint_document d = fixture();
  CHECK(written(d) == text);
  // The typed value holds what the report says.
  CHECK(d.workload.name == "llama3-8b");
  CHECK(d.label == "ckpt-fixture");
  CHECK(d.checkpoint.write.count == 2);
  CHECK(d.checkpoint.read.asked == 1);
  REQUIRE(d.checkpoint.read.verify);
  CHECK(d.checkpoint.read.verify->enabled);
  CHECK(d.checkpoint.write.latency.count() > 0);
  CHECK(d.status == report::run_status::complete);
  CHECK_FALSE(d.checkpoint.s3);
  CHECK_FALSE(d.checkpoint.failure);
}

TEST_CASE("a checkpoint report's bucket, failure and reason survive a round trip", "[checkpoint]") {
  const report::checkpoint_document d = failed_bucket_run();
  const nlohmann::json j = report::to_json(d);
  CHECK(j["checkpoint"]["s3"]["write"]["retries_by_cause"]["503"] == 2);
  CHECK(j["checkpoint"]["failure"] ==
        nlohmann::json{{"phase", "read"}, {"checkpoint", 2}, {"rank", 1}, {"error", "EIO"}});
  CHECK(j["status"] == "incomplete");
  CHECK_FALSE(j.contains("label"));
  CHECK_FALSE(j.contains("fs_separation"));
  CHECK(written(report::checkpoint_document_from_json(j)) == j.dump(2) + "\n");
}

TEST_CASE("a checkpoint report from before the later keys reads back without them",
          "[checkpoint]") {
  nlohmann::json j = nlohmann::json::parse(fixture_text());
  for (const char* key : {"read_shift", "caches_dropped", "dedupe_percent", "compress_percent"})
    j["checkpoint"].erase(key);
  j.erase("mlperf_validity");
  const report::checkpoint_document d = report::checkpoint_document_from_json(j, "older.json");
  CHECK_FALSE(d.checkpoint.read_shift);
  CHECK_FALSE(d.checkpoint.caches_dropped);
  CHECK_FALSE(d.checkpoint.dedupe_percent);
  CHECK_FALSE(d.checkpoint.compress_percent);
  CHECK_FALSE(d.mlperf_validity);
  CHECK(written(d) == j.dump(2) + "\n");
  CHECK(render::checkpoint_summary(d).find("MLPerf Storage") == std::string::npos);
}

TEST_CASE("a checkpoint report with a key missing or of another type is refused, naming it",
          "[checkpoint]") {
  const nlohmann::json good = nlohmann::json::parse(fixture_text());
  auto refused = [](const nlohmann::json& j) {
    return test::usage_error_message([&] { report::checkpoint_document_from_json(j, "r.json"); });
  };
  nlohmann::json j = good;
  j["checkpoint"]["write"].erase("bytes");
  CHECK(refused(j) == "r.json: /checkpoint/write/bytes: missing");
  j = good;
  j["checkpoint"]["read"]["runs"][0]["ranks"][0]["seconds"] = "1";
  CHECK(refused(j) ==
        "r.json: /checkpoint/read/runs/0/ranks/0/seconds: is a string. valid: a number");
  j = good;
  j["checkpoint"]["ranks"] = -1;
  CHECK(refused(j) == "r.json: /checkpoint/ranks: is -1. valid: an integer >= 0");
  j = good;
  j["status"] = "done";
  CHECK_THAT(refused(j), StartsWith("r.json: /status: invalid value 'done'"));
  j = good;
  j["kind"] = "bench";
  CHECK_THAT(refused(j), StartsWith("r.json: /: not a checkpoint report"));
}

TEST_CASE("the checkpoint summary prints the typed report as dlsize checkpoint printed it",
          "[checkpoint]") {
  // The old binary's stdout for the fixture's run, less the line naming the report file.
  CHECK(render::checkpoint_summary(fixture()) ==
        "write 2 x 5.38 MiB: duration 0.230 s (mean of the slowest rank), throughput 24.5 MB/s "
        "(23.4 MiB/s) (slowest rank), aggregate 24.5 MB/s (23.4 MiB/s)\n"
        "read  1 x 5.38 MiB: duration 0.161 s (mean of the slowest rank), throughput 35.0 MB/s "
        "(33.4 MiB/s) (slowest rank), aggregate 35.0 MB/s (33.4 MiB/s)\n"
        "MLPerf Storage v3 rules: INVALID\n"
        "  FAIL: the simulated accelerators' memory holds the checkpoint: no accelerator declared "
        "(--accelerator): v3.0 fails a run whose metadata records none\n"
        "  FAIL: checkpoints and results on different file systems: checkpoints on 254:0, "
        "results on 254:0\n"
        "status complete\n");
  // A phase that did not run is left out; the reason follows the status.
  report::checkpoint_document d = failed_bucket_run();
  const std::string s = render::checkpoint_summary(d);
  CHECK(s.find("read ") == std::string::npos);
  CHECK(s.find("write 2 x 5.38 MiB") == 0);
  CHECK_THAT(s, Catch::Matchers::EndsWith(
                    "status incomplete: failed: reading checkpoint 2: rank 1: EIO\n"));
}
