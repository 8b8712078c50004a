// Unit tests for src/analysis/sizing_report and its renderers: reports grouped into series, runs
// left out with the reason, the document's figures, and Markdown and HTML that hold them.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "sizing_fixture.hpp"
#include "test_support.hpp"

#include "analysis/sizing_report.hpp"
#include "render/html_page.hpp"
#include "render/sizing_render.hpp"
#include "render/svg_chart.hpp"
#include "report/report_io.hpp"

using namespace dlsize;
using Catch::Matchers::Contains;
using test::sizing_json;
using test::training_summary;

namespace {

// A training report of n accelerators on a backend capped at `cap` bytes/s (1e12: no cap),
// demand 40 MB/s each.
analysis::loaded_report run(double n, int seed, double cap, const std::string& path = "/data/r50") {
  const double bw = std::min(n * 40e6, cap) * (1 + 0.002 * seed);
  const double au = std::min(1.0, cap / (n * 40e6));
  nlohmann::json r = {
      {"schema", report::kReportSchema},
      {"kind", "bench"},
      {"status", "complete"},
      {"command_line", {"dlsize", "bench", "--accelerators", std::to_string(static_cast<int>(n))}},
      {"config", {{"seed", seed}, {"accelerators", n}, {"queue-depth", 16}, {"dataset", path}}},
      {"workload",
       {{"name", "resnet50"}, {"mean_sample_bytes", 114660}, {"accelerator", {{"type", "h100"}}}}},
      {"topology", {{"accelerators", n}, {"nodes", 1}}},
      {"dataset", {{"path", path}, {"fs_type", "ext4"}, {"bytes", 1e9}, {"client_ram_bytes", 8e9}}},
      {"io",
       {{"max_read_rate", cap < 1e12 ? nlohmann::json(cap) : nlohmann::json(nullptr)},
        {"cache_mode", "direct"}}},
      {"storage", {{"hit_ratio", 0.0}}},
      {"summary", training_summary(n, au, bw)}};
  return analysis::loaded_report::of(
      "n" + std::to_string(static_cast<int>(n)) + "-r" + std::to_string(seed) + ".json", r);
}

analysis::report_inputs sweep_of(double cap, const std::vector<double>& counts) {
  analysis::report_inputs in;
  for (int seed = 1; seed <= 3; ++seed)
    for (double n : counts)
      in.reports.push_back(run(n, seed, cap));
  return in;
}

} // namespace

TEST_CASE("size finds the knee of a capped backend and projects past it with warnings",
          "[sizing]") {
  analysis::sizing_request req;
  req.targets = {16};
  req.growth = {1};
  req.nic_bandwidth = 100e6;
  req.nic_efficiency = 1;
  req.clients = 4;
  const auto z = sizing_json(sweep_of(200e6, {1, 2, 3, 4, 6, 8}), req, {"dlsize", "size"});
  CHECK(z["schema"] == analysis::kSizingSchema);
  REQUIRE(z["series"].size() == 1);
  const auto& s = z["series"][0];
  CHECK(s["backend"] == "/data/r50 (ext4), capped at 200.0 MB/s");
  CHECK(s["measured"].size() == 6);
  CHECK(s["runs"].size() == 18);
  CHECK(s["knee"]["chosen"] == true);
  CHECK(s["knee"]["accelerators"].get<double>() == Approx(5).margin(1));
  CHECK(s["ceiling"]["bytes_per_s"].get<double>() == Approx(200e6).epsilon(0.01));
  CHECK(s["au_knee"]["first_below_accelerators"] == 6);
  CHECK(s["max_accelerators_at_threshold"]["measured"] == 4);
  CHECK(s["max_accelerators_at_threshold"]["modelled"] == 5);
  CHECK(s["limit_bytes_per_s"].get<double>() == Approx(400e6));
  const auto& p = s["projections"][0];
  CHECK(p["required_bytes_per_s"].get<double>() == Approx(16 * 40e6).epsilon(0.01));
  CHECK(p["within_limit"] == false);
  CHECK(p["provision_capped_bytes_per_s"].get<double>() == Approx(400e6));
  CHECK(p["flags"] == nlohmann::json({"extrapolated", "past the knee", "over the limit"}));
  CHECK(s["fit"]["curve"].size() == 33);
  CHECK(z["reproduce"][0] == "dlsize size");
}

TEST_CASE("size groups reports by backend and leaves out runs it cannot size", "[sizing]") {
  auto in = sweep_of(1e12, {1, 2, 4});
  auto other = run(2, 1, 1e12, "/nfs/r50");
  in.reports.push_back(other);
  auto storage_only = run(1, 1, 1e12);
  storage_only.file = "io.json";
  storage_only.report["workload"].erase("accelerator");
  storage_only.report["topology"]["accelerators"] = 0;
  in.reports.push_back(storage_only);
  auto broken = run(4, 9, 1e12);
  broken.file = "stopped.json";
  broken.report["status"] = "incomplete";
  broken.report["reason"] = "interrupted by signal 2";
  in.reports.push_back(broken);
  const auto z = sizing_json(in, {}, {"dlsize", "size"});
  REQUIRE(z["series"].size() == 2);
  CHECK(z["series"][1]["backend"] == "/nfs/r50 (ext4)");
  CHECK(z["series"][1]["fit"].is_null());
  CHECK_THAT(z["series"][1]["warnings"].dump(), Contains("no fit"));
  const std::string inputs = z["inputs"]["reports"].dump();
  CHECK_THAT(inputs, Contains("a storage-only run"));
  CHECK_THAT(inputs, Contains("status incomplete: interrupted by signal 2"));
  // No knee on an uncapped backend: no ceiling, and AU passes at every count.
  const auto& s = z["series"][0];
  CHECK(s["knee"]["chosen"] == false);
  CHECK(s["ceiling"]["bytes_per_s"].is_null());
  CHECK(s["max_accelerators_at_threshold"]["measured_is_lower_bound"] == true);
}

TEST_CASE("size refuses inputs with nothing to size and files that are not reports", "[sizing]") {
  analysis::report_inputs in;
  auto io = run(1, 1, 1e12);
  io.report["workload"].erase("accelerator");
  in.reports.push_back(io);
  CHECK_THAT(test::usage_error_message([&] { (void)analysis::make_sizing(in, {}, {}); }),
             Contains("no report can be sized"));
  in.reports[0].report["schema"] = "other/1";
  CHECK_THAT(test::usage_error_message([&] { (void)analysis::make_sizing(in, {}, {}); }),
             Contains("not a dlsize bench or checkpoint report"));
}

TEST_CASE("the sizing Markdown and HTML hold the tables, the charts and the commands", "[sizing]") {
  const auto z =
      analysis::make_sizing(sweep_of(200e6, {1, 2, 3, 4, 6, 8}), {}, {"dlsize", "size", "x"});
  const std::string md = render::sizing_markdown(z);
  CHECK_THAT(md, Contains("### Measured"));
  CHECK_THAT(md, Contains("| accelerators | runs |"));
  CHECK_THAT(md, Contains("knee at"));
  CHECK_THAT(md, Contains("dlsize size x"));
  const std::string html = render::sizing_html(z);
  CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
  std::size_t svgs = 0;
  for (auto at = html.find("<svg"); at != std::string::npos; at = html.find("<svg", at + 1))
    ++svgs;
  CHECK(svgs == 4); // the answer's chart, then the series' three
  // A knee was chosen: the hinge and the requirement replace the line over every run.
  CHECK_THAT(html, Contains("hinge fit"));
  CHECK(html.find(">line fit<") == std::string::npos);
  CHECK_THAT(html, Contains("threshold 0.90"));
  // A straight series keeps the line and its prediction band.
  const std::string linear = render::sizing_html(
      analysis::make_sizing(sweep_of(1e12, {1, 2, 3, 4, 6, 8}), {}, {"dlsize", "size", "x"}));
  CHECK_THAT(linear, Contains(">line fit<"));
  CHECK_THAT(linear, Contains("class=\"band\""));
  CHECK(html.find("<script") == std::string::npos);
  CHECK(html.find("http://") == html.find("http://www.w3.org/2000/svg"));
}

TEST_CASE("bar charts label bars, draw spreads and thresholds, and print plain numbers",
          "[report]") {
  const std::string svg = render::svg_bar_chart(
      "Samples/s", "samples/s", {{"vm-disk", 12000, 11800, 12100}, {"vm-disk-cap500MBps", 7000}},
      render::reference_line{"AU threshold 0.90", 0.9});
  CHECK_THAT(svg, Contains(">vm-disk<"));
  CHECK_THAT(svg, Contains(">vm-disk-cap500MBps<"));
  CHECK_THAT(svg, Contains(">12,000<"));
  CHECK(svg.find("e+") == std::string::npos);
  std::size_t error_bars = 0;
  for (auto at = svg.find("class=\"error-bar\""); at != std::string::npos;
       at = svg.find("class=\"error-bar\"", at + 1))
    ++error_bars;
  CHECK(error_bars == 1); // the second bar has no spread
  CHECK_THAT(svg, Contains("class=\"threshold\""));
  CHECK_THAT(svg, Contains("fill=\"#1f77b4\""));
  CHECK_THAT(svg, Contains("fill=\"#d62728\""));
}

TEST_CASE("html_escape and nice_step", "[report]") {
  CHECK(render::html_escape("a<b & \"c\"") == "a&lt;b &amp; &quot;c&quot;");
  CHECK(render::nice_step(10) == 2);
  CHECK(render::nice_step(320) == 50);
  CHECK(render::nice_step(1.1) == Approx(0.2));
}

TEST_CASE("a linear series gives no knee and a ceiling at or above the best run", "[sizing]") {
  // tmpfs as measured: every run passes, bandwidth bends from 211 to 202 MB/s per accelerator
  // near 7 (significant, and meaningless); the largest runs wait with their queues full.
  analysis::report_inputs in;
  for (int seed = 1; seed <= 3; ++seed)
    for (double n : {1.0, 2.0, 4.0, 6.0, 8.0, 12.0, 16.0}) {
      auto r = run(n, seed, 1e12);
      const double bw = (n <= 7 ? 211e6 * n : 211e6 * 7 + 202e6 * (n - 7)) * (1 + 0.0005 * seed);
      r.report["summary"]["read_bytes_per_s"] = bw;
      r.report["summary"]["accelerator_utilization"] = n >= 12 ? 0.95 : 0.999;
      r.report["summary"]["au_pass"] = true;
      r.report["io"]["queue_depth"] = 16;
      r.report["io"]["reader_time"] = {{"busiest_cpu_share", 0.3},
                                       {"queue_full_share", n >= 12 ? 0.8 : 0.0},
                                       {"completion_wait_share", 0.5},
                                       {"mean_in_flight", 8.0}};
      in.reports.push_back(r);
    }
  const auto z = sizing_json(in, {}, {"dlsize", "size"});
  const auto& s = z["series"][0];
  CHECK(s["knee"]["chosen"] == false);
  CHECK_THAT(s["knee"]["reason"].get<std::string>(), Contains("no knee in practice"));
  const double best = s["ceiling"]["best_measured_bytes_per_s"].get<double>();
  REQUIRE(s["ceiling"]["bytes_per_s"].is_number());
  CHECK(s["ceiling"]["bytes_per_s"].get<double>() >= best);
  CHECK(s["ceiling"]["storage_limited_runs"] == 6);
  CHECK(s["max_accelerators_at_threshold"]["modelled"].get<double>() >= 16);
  CHECK(s["max_accelerators_at_threshold"]["measured"] == 16);
  CHECK(s["runs"].back()["limited_by"] == "storage");
}

TEST_CASE("two labelled backends at one path stay two series", "[sizing]") {
  analysis::report_inputs in;
  for (const char* label : {"local", "throttled"})
    for (int seed = 1; seed <= 2; ++seed)
      for (double n : {1.0, 2.0, 4.0}) {
        auto r = run(n, seed, 1e12);
        r.report["config"]["label"] = label;
        if (std::string(label) == "throttled")
          r.report["summary"]["read_bytes_per_s"] = std::min(n * 40e6, 60e6);
        in.reports.push_back(r);
      }
  const auto z = sizing_json(in, {}, {"dlsize", "size"});
  REQUIRE(z["series"].size() == 2);
  CHECK_THAT(z["series"][0]["backend"].get<std::string>(), Contains("local"));
  CHECK_THAT(z["series"][1]["backend"].get<std::string>(), Contains("throttled"));
  CHECK(z["series"][0]["runs"].size() == 6);
}

TEST_CASE("repeats of one point that spread beyond 5 % get a two-cluster warning naming them",
          "[sizing]") {
  auto in = sweep_of(1e12, {1, 2, 4});
  in.reports[1].report["summary"]["read_bytes_per_s"] = 2 * 40e6 * 0.8;
  const auto z = sizing_json(in, {}, {"dlsize", "size"});
  const std::string w = z["series"][0]["warnings"].dump();
  CHECK_THAT(w, Contains("two clusters"));
  CHECK_THAT(w, Contains(in.reports[1].file));
}

TEST_CASE("runs limited by the client stay out of the requirement and the ceiling", "[sizing]") {
  auto in = sweep_of(1e12, {1, 2, 4, 8});
  for (auto& r : in.reports)
    if (r.report["topology"]["accelerators"] == 8) {
      r.report["summary"]["read_bytes_per_s"] = 100e6; // the reader, not the storage
      r.report["summary"]["accelerator_utilization"] = 0.31;
      r.report["summary"]["au_pass"] = false;
      r.report["io"]["reader_time"] = {{"busiest_cpu_share", 0.98}};
    }
  const auto z = sizing_json(in, {}, {"dlsize", "size"});
  const auto& s = z["series"][0];
  CHECK(s["ceiling"]["bytes_per_s"].is_null());
  CHECK(s["ceiling"]["client_limited_runs"] == 3);
  CHECK(s["requirement"]["fit"]["slope"].get<double>() == Approx(40e6).epsilon(0.01));
  CHECK_THAT(s["warnings"].dump(), Contains("a lower bound of the backend's ceiling"));
}

TEST_CASE("prediction intervals widen with the repeats' spread and the model's error", "[sizing]") {
  auto in = sweep_of(1e12, {1, 2, 4, 8});
  const auto z = sizing_json(in, {}, {"dlsize", "size"});
  const auto& s = z["series"][0];
  CHECK(s["requirement"]["model_error_cv"].get<double>() >= 0.005);
  CHECK(s["requirement"]["repeat_cv"].get<double>() > 0);
  const auto& p = s["projections"][0]; // 64 accelerators
  const double mid = p["reads_bytes_per_s"].get<double>();
  // At least the model error's share on either side (t > 1.96).
  CHECK(p["reads_interval"][1].get<double>() - mid > 0.0098 * mid);
}
