// Unit tests for src/analysis/compare.hpp: backends grouped, medians, spreads, deltas.
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <fmt/format.h>

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

const analysis::compare_metric_row& metric(const analysis::compare_document& c,
                                           const std::string& name) {
  for (const auto& m : c.head().metrics)
    if (m.metric == name)
      return m;
  throw std::runtime_error("no metric " + name);
}

const analysis::metric_figures& figures(const analysis::compare_backend& b,
                                        const std::string& name) {
  const auto* m = b.metric(name);
  if (!m)
    throw std::runtime_error("no figures of " + name);
  return *m;
}

} // namespace

TEST_CASE("compare groups repeats by backend and takes medians and spreads", "[compare]") {
  const auto c =
      analysis::compare_reports({fake("a1", "/a", 1000, 0.95, 1), fake("a2", "/a", 1100, 0.97, 2),
                                 fake("a3", "/a", 900, 0.93, 3), fake("b1", "/b", 500, 0.5, 1),
                                 fake("b2", "/b", 520, 0.52, 2), fake("b3", "/b", 480, 0.48, 3)});
  const auto& bs = c.head().backends;
  REQUIRE(bs.size() == 2);
  const auto& a = figures(bs[0], "samples_per_s");
  CHECK(a.median == Approx(1000));
  CHECK(a.spread.value() == Approx(0.2)); // (1100 − 900) / 1000
  CHECK(bs[0].au_passes == 3);
  CHECK(bs[1].au_passes == 0);
  const auto& d = metric(c, "samples_per_s").against_first[1];
  REQUIRE(d);
  CHECK(d->delta == Approx(-0.5));
  CHECK(d->exceeds_spread == true); // 50 % against spreads of 20 % and 8 %
  CHECK(c.warnings.empty());
}

TEST_CASE("compare says a difference inside the run-to-run spread is not one", "[compare]") {
  const auto c =
      analysis::compare_reports({fake("a1", "/a", 1000, 0.95, 1), fake("a2", "/a", 1400, 0.97, 2),
                                 fake("b1", "/b", 1100, 0.95, 1), fake("b2", "/b", 1300, 0.96, 2)});
  // Medians 1200 and 1200: no difference; the AU medians 0.96 against 0.955.
  const auto& d = metric(c, "accelerator_utilization").against_first[1];
  REQUIRE(d);
  CHECK(d->exceeds_spread == false);
  CHECK(d->verdict == analysis::delta_verdict::within_spread);
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
  REQUIRE(c.sections.size() == 2);
  CHECK(c.sections[0].accelerators == 4);
  CHECK(c.sections[0].backends.size() == 2);
  CHECK(c.head().accelerators == 8); // the largest count both backends have
  CHECK(c.head().backends[0].reports == std::vector<std::string>{"/a8"});
}

TEST_CASE("an incomplete report is left out of compare and listed", "[compare]") {
  auto broken = fake("a4", "/a", 10, 0.1, 4);
  broken.report["status"] = "incomplete";
  broken.report["reason"] = "interrupted by signal 2";
  const auto c = analysis::compare_reports(
      {fake("a1", "/a", 1000, 0.95, 1), broken, fake("b1", "/b", 500, 0.5, 1)});
  CHECK(c.head().backends[0].runs() == 1);
  CHECK(figures(c.head().backends[0], "samples_per_s").median == Approx(1000));
  REQUIRE(c.left_out.size() == 1);
  CHECK(c.left_out[0].file == "a4");
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
  const auto& bs = c.head().backends;
  REQUIRE(bs.size() == 2);
  CHECK(bs[1].synthetic_latency);
  CHECK(figures(bs[1], "latency_p50_s").synthetic);
  CHECK_FALSE(figures(bs[0], "latency_p50_s").synthetic);
  CHECK(metric(c, "samples_per_s").against_first[1]->verdict == analysis::delta_verdict::worse);
  const auto& w = c.head().samples_per_s_against_first[1];
  REQUIRE(w.ratio);
  CHECK(w.ratio->ratio == Approx(0.5).epsilon(0.01));
  const std::string md = render::compare_markdown(c);
  CHECK_THAT(md, Contains("## Samples/s, backend against backend"));
  CHECK_THAT(md, Contains("is faster than"));
  CHECK_THAT(md, Contains("synthetic"));
  CHECK_THAT(md, Contains("1,002")); // human-formatted, no exponent
}

TEST_CASE("compare warns when settings or seeds differ between backends", "[compare]") {
  auto b = fake("b", "/b", 1, 1, 9);
  b.report["config"]["queue-depth"] = 64;
  const auto c = analysis::compare_reports({fake("a", "/a", 1, 1, 1), b});
  const std::string w = fmt::format("{}", fmt::join(c.warnings, "\n"));
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
  CHECK_THAT(html, Contains("/b (nfs4): reports b1"));
  CHECK_THAT(html, Contains("Appendix: MLPerf Storage validity per point"));
}

namespace {

// A report's topology of 4 accelerators spread over `nodes` nodes of `ranks_per_node` ranks.
nlohmann::json four_accelerators_on(int nodes, int ranks_per_node) {
  const int ranks = nodes * ranks_per_node;
  return {{"accelerators", 4},
          {"ranks", ranks},
          {"nodes", nodes},
          {"ranks_per_node", ranks_per_node},
          {"accelerators_per_rank", 4 / ranks}};
}

} // namespace

TEST_CASE("compare tells the same load spread over other nodes and ranks apart", "[compare]") {
  auto up = fake("up", "/a", 1000, 0.95, 1);
  up.report["topology"] = four_accelerators_on(1, 2);
  auto out = fake("out", "/a", 900, 0.9, 1);
  out.report["topology"] = four_accelerators_on(2, 2);
  const auto c = analysis::compare_reports({up, out});
  REQUIRE(c.head().backends.size() == 2);
  CHECK_THAT(c.head().backends[0].backend, Contains("1 node × 2 ranks × 2 accelerators"));
  CHECK_THAT(c.head().backends[1].backend, Contains("2 nodes × 2 ranks × 1 accelerator"));
  // Without a difference in topology the label is the backend's alone.
  CHECK(analysis::compare_reports({fake("a", "/a", 1, 1, 1), fake("b", "/b", 1, 1, 2)})
            .head()
            .backends[0]
            .backend == "/a (nfs4)");
}

namespace {

// Two backends at 4 accelerators: "a" of two runs, "b" of one, and one metric.
analysis::compare_document small_comparison() {
  analysis::compare_backend a;
  a.backend = a.label = "a";
  a.identity = "label=a";
  a.reports = {"a1.json", "a2.json"};
  a.au_passes = 2;
  a.limited_by = {{report::limit_kind::storage, 2}};
  a.metrics = {{"samples_per_s", analysis::metric_figures{1000, 2, 0.1, false}}};
  analysis::compare_backend b;
  b.backend = "b, capped at 50.0 MB/s";
  b.label = "b";
  b.reports = {"b1.json"};
  b.synthetic_latency = true;
  b.metrics = {{"samples_per_s", analysis::metric_figures{1500, 1, std::nullopt, false}}};
  analysis::compare_section s;
  s.accelerators = 4;
  s.backends = {a, b};
  s.metrics = {{"samples_per_s",
                "samples/s",
                true,
                {analysis::metric_delta{0, std::nullopt, analysis::delta_verdict::not_known},
                 analysis::metric_delta{0.5, true, analysis::delta_verdict::better}}}};
  s.samples_per_s_against_first = {{"a", std::nullopt, "not enough runs"},
                                   {"b", analysis::ratio_interval{1.5, 1.2, 1.8, 3}, "1.5×"}};
  analysis::compare_document d;
  d.created_at = "2024-01-01T00:00:00Z";
  d.tool = {{"name", "dlsize"}, {"version", "9.9"}};
  d.workload = "resnet50";
  d.accelerator = "h100";
  d.dataset = "1000 samples";
  d.sections = {s};
  d.left_out = {{"a3.json", "status incomplete: interrupted"}};
  d.warnings = {"seeds differ"};
  return d;
}

std::vector<std::string> keys_of(const nlohmann::json& j) {
  std::vector<std::string> k;
  for (const auto& [key, value] : j.items())
    k.push_back(key);
  return k;
}

} // namespace

TEST_CASE("a comparison's JSON holds the headline count's keys beside every count's", "[compare]") {
  const nlohmann::json j = analysis::to_json(small_comparison());
  CHECK(keys_of(j) == std::vector<std::string>{"accelerator", "accelerators", "answers", "backends",
                                               "by_accelerators", "created_at", "dataset",
                                               "left_out", "metrics", "samples_per_s_against_first",
                                               "schema", "sizing_note", "tool", "warnings",
                                               "workload"});
  CHECK(j.at("schema") == analysis::kCompareSchema);
  CHECK(j.at("accelerators") == 4);
  CHECK(j.at("backends") == j.at("by_accelerators").at(0).at("backends"));
  const auto& a = j.at("backends").at(0);
  CHECK(keys_of(a) == std::vector<std::string>{"au_passes", "backend", "identity", "label",
                                               "limited_by", "metrics", "mlperf_validity",
                                               "reports", "runs", "synthetic_latency"});
  CHECK(a.at("runs") == 2);
  CHECK(a.at("limited_by") == nlohmann::json{{"storage", 2}});
  CHECK(a.at("metrics").at("samples_per_s") ==
        nlohmann::json{{"median", 1000.0}, {"runs", 2}, {"spread", 0.1}, {"synthetic", false}});
  CHECK(j.at("backends").at(1).at("metrics").at("samples_per_s").at("spread").is_null());
  const auto& row = j.at("metrics").at(0);
  CHECK(row.at("against_first").at(0).at("exceeds_spread").is_null());
  CHECK(row.at("against_first").at(1) ==
        nlohmann::json{{"delta", 0.5}, {"exceeds_spread", true}, {"verdict", "better"}});
  CHECK(j.at("samples_per_s_against_first").at(0).at("ci95").is_null());
  CHECK(j.at("samples_per_s_against_first").at(1).at("ci95") == nlohmann::json{1.2, 1.8});
  CHECK(
      j.at("left_out") ==
      nlohmann::json::array({{{"file", "a3.json"}, {"reason", "status incomplete: interrupted"}}}));
  CHECK(analysis::tool_version(small_comparison()) == "9.9");
}

TEST_CASE("compare's printers read the typed comparison", "[compare]") {
  const auto d = small_comparison();
  const auto t = render::compare_table(d);
  REQUIRE(t.header ==
          std::vector<std::string>{"metric", "a (2 runs)", "b, capped at 50.0 MB/s (1 runs)"});
  CHECK(t.rows[0] == std::vector<std::string>{"samples_per_s (samples/s)", "1,000 ±5.0 %",
                                              "1,500, +50.0 % (better)"});
  CHECK(t.rows[1] == std::vector<std::string>{"AU pass", "2 of 2 runs", "0 of 1 runs"});
  const std::string md = render::compare_markdown(d);
  CHECK_THAT(md, Contains("# resnet50 on 4 × h100: backend comparison"));
  CHECK_THAT(md, Contains("- 4 accelerators: **b, capped at 50.0 MB/s** is faster than a: 1.5×"));
  CHECK_THAT(md, Contains("(a 1,000, b, capped at 50.0 MB/s 1,500 samples/s)"));
  CHECK_THAT(md, Contains("- left out: a3.json (status incomplete: interrupted)"));
  CHECK_THAT(md, Contains("- a: AU pass in 2 of 2 runs; reports: a1.json, a2.json"));
  CHECK_THAT(md, Contains("- warning: seeds differ"));
  CHECK_THAT(render::compare_html(d), Contains("by dlsize 9.9."));
}

TEST_CASE("compare names a backend behind cgroup I/O limits in words, never as JSON", "[compare]") {
  auto limited = fake("a1", "/a", 500, 0.5, 1);
  limited.report["storage"] = {
      {"io_limits", {{{"device", "7:0"}, {"rbps", 500000000}, {"wbps", nullptr}}}}};
  const auto c = analysis::compare_reports({fake("a0", "/a", 1000, 0.95, 1), limited});
  REQUIRE(c.head().backends.size() == 2);
  CHECK(c.head().backends[1].backend == "/a (nfs4), io limits read cap 500 MB/s on 7:0");
  for (const std::string& out : {render::compare_markdown(c), render::compare_html(c)}) {
    CHECK_THAT(out, Contains("read cap 500 MB/s on 7:0"));
    CHECK(out.find("[{") == std::string::npos);
    CHECK(out.find("{\"") == std::string::npos);
  }
}
