// Unit tests for src/analysis/compare.hpp: backends grouped, medians, spreads, deltas.
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "test_support.hpp"

#include "analysis/compare.hpp"
#include "analysis/report_set.hpp"
#include "render/compare_render.hpp"
#include "report/report_io.hpp"

using namespace dlsize;
using Catch::Matchers::Contains;

namespace {

analysis::loaded_report fake(const std::string& file, const std::string& path, double sps,
                             double au, int seed, const std::string& workload = "resnet50") {
  nlohmann::json r = {
      {"schema", report::kReportSchema},
      {"kind", "bench"},
      {"status", "complete"},
      {"config", {{"seed", seed}, {"queue-depth", 16}, {"dataset", path}}},
      {"workload", {{"name", workload}, {"accelerator", {{"type", "h100"}}}}},
      {"topology", {{"accelerators", 4}}},
      {"dataset", {{"path", path}, {"fs_type", "nfs4"}, {"samples", 1000}}},
      {"io", {{"max_read_rate", nullptr}, {"latency", {{"p50_s", 0.001}, {"p99_s", 0.004}}}}},
      {"summary",
       {{"samples_per_s", sps},
        {"samples_per_s_per_accelerator", sps / 4},
        {"accelerator_utilization", au},
        {"au_pass", au >= 0.9},
        {"read_bytes_per_s", sps * 1e5},
        {"data_wait", {{"p99_s", 0.01}}},
        {"cpu_utilization", {{"process", 0.5}}}}}};
  return analysis::loaded_report::of(file, r);
}

const nlohmann::json& metric(const nlohmann::json& c, const std::string& name) {
  for (const auto& m : c["metrics"])
    if (m["metric"] == name)
      return m;
  throw std::runtime_error("no metric " + name);
}

} // namespace

TEST_CASE("compare groups repeats by backend and takes medians and spreads", "[compare]") {
  const auto c =
      analysis::compare_reports({fake("a1", "/a", 1000, 0.95, 1), fake("a2", "/a", 1100, 0.97, 2),
                                 fake("a3", "/a", 900, 0.93, 3), fake("b1", "/b", 500, 0.5, 1),
                                 fake("b2", "/b", 520, 0.52, 2), fake("b3", "/b", 480, 0.48, 3)});
  REQUIRE(c["backends"].size() == 2);
  const auto& a = c["backends"][0]["metrics"]["samples_per_s"];
  CHECK(a["median"].get<double>() == Approx(1000));
  CHECK(a["spread"].get<double>() == Approx(0.2)); // (1100 − 900) / 1000
  CHECK(c["backends"][0]["au_passes"] == 3);
  CHECK(c["backends"][1]["au_passes"] == 0);
  const auto& d = metric(c, "samples_per_s")["against_first"][1];
  CHECK(d["delta"].get<double>() == Approx(-0.5));
  CHECK(d["exceeds_spread"] == true); // 50 % against spreads of 20 % and 8 %
  CHECK(c["warnings"].empty());
}

TEST_CASE("compare says a difference inside the run-to-run spread is not one", "[compare]") {
  const auto c =
      analysis::compare_reports({fake("a1", "/a", 1000, 0.95, 1), fake("a2", "/a", 1400, 0.97, 2),
                                 fake("b1", "/b", 1100, 0.95, 1), fake("b2", "/b", 1300, 0.96, 2)});
  // Medians 1200 and 1200: no difference; the AU medians 0.96 against 0.955.
  const auto& d = metric(c, "accelerator_utilization")["against_first"][1];
  CHECK(d["exceeds_spread"] == false);
}

TEST_CASE("compare refuses different workloads and lines up equal accelerator counts",
          "[compare]") {
  CHECK_THAT(test::usage_error_message([] {
               (void)analysis::compare_reports(
                   {fake("a", "/a", 1, 1, 1), fake("b", "/b", 1, 1, 1, "unet3d")});
             }),
             Contains("not the same load"));
  std::vector<analysis::loaded_report> runs;
  for (int n : {4, 8})
    for (const char* b : {"/a", "/b"}) {
      auto r = fake(std::string(b) + std::to_string(n), b, 100.0 * n, 1, 1);
      r.report["topology"]["accelerators"] = n;
      runs.push_back(r);
    }
  const auto c = analysis::compare_reports(runs);
  REQUIRE(c["by_accelerators"].size() == 2);
  CHECK(c["by_accelerators"][0]["accelerators"] == 4);
  CHECK(c["by_accelerators"][0]["backends"].size() == 2);
  CHECK(c["accelerators"] == 8); // the largest count both backends have
  CHECK(c["backends"][0]["reports"] == nlohmann::json({"/a8"}));
}

TEST_CASE("an incomplete report is left out of compare and listed", "[compare]") {
  auto broken = fake("a4", "/a", 10, 0.1, 4);
  broken.report["status"] = "incomplete";
  broken.report["reason"] = "interrupted by signal 2";
  const auto c = analysis::compare_reports(
      {fake("a1", "/a", 1000, 0.95, 1), broken, fake("b1", "/b", 500, 0.5, 1)});
  CHECK(c["backends"][0]["runs"] == 1);
  CHECK(c["backends"][0]["metrics"]["samples_per_s"]["median"].get<double>() == Approx(1000));
  REQUIRE(c["left_out"].size() == 1);
  CHECK(c["left_out"][0]["file"] == "a4");
  CHECK_THAT(render::compare_markdown(c), Contains("left out: a4"));
}

TEST_CASE("compare marks latency under --max-read-rate as synthetic and names the winner",
          "[compare]") {
  std::vector<analysis::loaded_report> runs;
  for (int seed = 1; seed <= 3; ++seed) {
    runs.push_back(fake("a" + std::to_string(seed), "/a", 1000 + seed, 0.99, seed));
    auto b = fake("b" + std::to_string(seed), "/a", 500 + seed, 0.5, seed);
    b.report["io"]["max_read_rate"] = 5e7;
    runs.push_back(b);
  }
  const auto c = analysis::compare_reports(runs);
  REQUIRE(c["backends"].size() == 2);
  CHECK(c["backends"][1]["synthetic_latency"] == true);
  CHECK(c["backends"][1]["metrics"]["latency_p50_s"]["synthetic"] == true);
  CHECK(c["backends"][0]["metrics"]["latency_p50_s"]["synthetic"] == false);
  CHECK(metric(c, "samples_per_s")["against_first"][1]["verdict"] == "worse");
  const auto& w = c["samples_per_s_against_first"][1];
  CHECK(w["ratio"].get<double>() == Approx(0.5).epsilon(0.01));
  const std::string md = render::compare_markdown(c);
  CHECK_THAT(md, Contains("## Summary"));
  CHECK_THAT(md, Contains("synthetic"));
  CHECK_THAT(md, Contains("1,002")); // human-formatted, no exponent
}

TEST_CASE("compare warns when settings or seeds differ between backends", "[compare]") {
  auto b = fake("b", "/b", 1, 1, 9);
  b.report["config"]["queue-depth"] = 64;
  const auto c = analysis::compare_reports({fake("a", "/a", 1, 1, 1), b});
  const std::string w = c["warnings"].dump();
  CHECK_THAT(w, Contains("queue-depth differs"));
  CHECK_THAT(w, Contains("seeds"));
}

TEST_CASE("compare refuses datasets of another shape", "[compare]") {
  auto other = fake("b", "/b", 1, 1, 1);
  other.report["dataset"]["samples"] = 2000;
  CHECK_THAT(test::usage_error_message([&] {
               (void)analysis::compare_reports({fake("a", "/a", 1, 1, 1), other});
             }),
             Contains("2000 samples"));
}

TEST_CASE("compare's table and HTML show every backend and metric", "[compare]") {
  const auto c =
      analysis::compare_reports({fake("a1", "/a", 1000, 0.95, 1), fake("b1", "/b", 500, 0.5, 1)});
  const auto t = render::compare_table(c);
  CHECK(t.header.size() == 3);
  CHECK(t.rows.back()[0] == "AU pass");
  CHECK(t.rows.back()[2] == "0 of 1 runs");
  const std::string html = render::compare_html(c);
  CHECK_THAT(html, Contains("<table>"));
  CHECK_THAT(html, Contains("class=\"bar\""));
  CHECK_THAT(html, Contains(">/b (nfs4)</text>")); // the bar's label
  CHECK_THAT(html, Contains("/b (nfs4); reports: b1"));
}

TEST_CASE("compare tells the same load spread over other nodes and ranks apart", "[compare]") {
  auto up = fake("up", "/a", 1000, 0.95, 1);
  up.report["topology"] = {{"accelerators", 4},
                           {"ranks", 2},
                           {"nodes", 1},
                           {"ranks_per_node", 2},
                           {"accelerators_per_rank", 2}};
  auto out = fake("out", "/a", 900, 0.9, 1);
  out.report["topology"] = {{"accelerators", 4},
                            {"ranks", 4},
                            {"nodes", 2},
                            {"ranks_per_node", 2},
                            {"accelerators_per_rank", 1}};
  const auto c = analysis::compare_reports({up, out});
  REQUIRE(c["backends"].size() == 2);
  CHECK_THAT(c["backends"][0]["backend"].get<std::string>(),
             Contains("1 node × 2 ranks × 2 accelerators"));
  CHECK_THAT(c["backends"][1]["backend"].get<std::string>(),
             Contains("2 nodes × 2 ranks × 1 accelerator"));
  // Without a difference in topology the label is the backend's alone.
  CHECK(analysis::compare_reports(
            {fake("a", "/a", 1, 1, 1), fake("b", "/b", 1, 1, 2)})["backends"][0]["backend"] ==
        "/a (nfs4)");
}
