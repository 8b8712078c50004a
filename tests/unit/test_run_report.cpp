// The bench report's shared sections as the pipeline fills them (pipeline/run_report.hpp): typed
// values whose JSON keeps each key's type and null where the run has no figure.
#include <catch2/catch.hpp>

#include "pipeline/run_report.hpp"
#include "report/bench_report.hpp"

using namespace dlsize;

TEST_CASE("the io section: null where the run has no figure, counts as unsigned integers",
          "[run_report]") {
  io::engine_options opt;
  opt.queue_depth = 8;
  io::reader_stats all;
  all.requests = 3;
  all.read_latency.record(1000);
  histogram samples;
  samples.record(2000);
  const nlohmann::json j =
      report::to_json(pipeline::io_json(opt, "io_uring", "", all, samples, "file", {}));
  CHECK(j.at("queue_depth").is_number_unsigned());
  CHECK(j.at("requests") == 3);
  CHECK(j.at("uncached_method").is_null());
  CHECK(j.at("max_read_rate").is_null());
  CHECK(j.at("first_error").is_null());
  CHECK(j.at("open_latency").is_null());
  CHECK(j.at("reader_time").is_null());
  CHECK(j.at("histogram").at("count") == 1);
  CHECK_FALSE(j.at("latency").contains("histogram"));
  CHECK(j.at("sample_latency").at("histogram").at("count") == 1);
  // What bench writes, a reader reads back typed and writes again unchanged.
  const nlohmann::json doc = {{"schema", "dlsize.report/1"}, {"kind", "bench"}, {"io", j}};
  const report::bench_report r = report::bench_report::from_json(doc);
  CHECK(r.io->extra.empty());
  CHECK(r.to_json() == doc);

  SECTION("opened files and a reader's time give their blocks") {
    all.opens = 2;
    all.open_latency.record(500);
    all.run_ns = 1000;
    all.cpu_ns = 250;
    all.queue_full_ns = 500;
    const report::io_section s = pipeline::io_json(opt, "io_uring", "", all, samples, "file", {});
    REQUIRE(s.reader_time.has_value());
    CHECK(*s.reader_time->cpu_share == Approx(0.25));
    CHECK(*s.reader_time->queue_full_share == Approx(0.5));
    REQUIRE(s.open_latency.has_value());
    CHECK(report::to_json(*s.open_latency).at("histogram").at("count") == 1);
  }
}

TEST_CASE("the storage section without a counter is null and warns; the CPU cost of no bytes is "
          "null",
          "[run_report]") {
  nlohmann::json warnings = nlohmann::json::array();
  const nlohmann::json none = report::to_json(pipeline::storage_json(
      false, "", 0, 100, 1.0, std::nullopt, std::nullopt, "tmpfs", warnings));
  CHECK(none.at("counter").is_null());
  CHECK(none.at("read_bytes").is_null());
  CHECK(none.at("hit_ratio").is_null());
  CHECK(warnings.size() == 1);
  const nlohmann::json some = report::to_json(pipeline::storage_json(
      true, "diskstats", 40, 100, 2.0, std::nullopt, std::nullopt, "ext4", warnings));
  CHECK(some.at("counter") == "diskstats");
  CHECK(some.at("read_bytes").is_number_unsigned());
  CHECK(some.at("hit_ratio").get<double>() == Approx(0.6));
  CHECK(some.at("read_bytes_per_s").get<double>() == Approx(20.0));
  CHECK(warnings.size() == 1);

  report::summary_section cost;
  telemetry::cpu_usage cpu;
  cpu.process_user_s = 1.0;
  pipeline::add_cpu_cost(cost, cpu, 0, 2000);
  const nlohmann::json c = report::to_json(cost);
  CHECK(c.at("cpu_s_per_gib").is_null());
  CHECK(c.at("cpu_s_per_1000_samples").get<double>() == Approx(0.5));
  CHECK(c.at("cpu_utilization").at("process_user_s") == 1.0);
}
