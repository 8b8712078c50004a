// Unit tests for src/analysis/requirement, sizing_answer and backend_prices: one requirement per
// load pooled over its backends, the verdict per backend (holds, does not hold, not determined),
// rows a cache cannot change merged, the buyer's prices, and the first screen that says it.
#include <fstream>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "analysis/backend_prices.hpp"
#include "analysis/projection.hpp"
#include "analysis/sizing_report.hpp"
#include "core/error.hpp"
#include "render/answer_render.hpp"
#include "report/report_io.hpp"
#include "sizing_fixture.hpp"

using namespace dlsize;
using Catch::Matchers::Contains;

namespace {

struct backend_runs {
  std::string label;
  double cap = 1e12;      // bytes/s; 1e12: none
  double host_cpu = 0.3;  // the client's CPU during the runs
  double bytes_scale = 1; // bytes read per sample against the profile's
  double au_factor = 1;   // the share of the demand the client could read, cap aside
};

// A training report of n accelerators of 40 MB/s demand on one labelled backend.
analysis::loaded_report run(const backend_runs& b, double n, int seed) {
  const double wobble = 1 + 0.002 * seed;
  const double demand = n * 40e6 * b.bytes_scale;
  const double bw = std::min(demand * b.au_factor, b.cap) * wobble;
  const double au = std::min(demand * b.au_factor, b.cap) / demand;
  nlohmann::json summary = test::training_summary(n, au, bw);
  summary["cpu_utilization"] = {{"process", 0.1},        {"host", b.host_cpu},
                                {"process_user_s", 0.1}, {"process_system_s", 0.1},
                                {"budget_cores", 2.0},   {"budget_share", 0.05}};
  summary["samples"] = 1000;
  summary["read_bytes"] = std::llround(1000 * 114660 * b.bytes_scale);
  nlohmann::json r = {
      {"schema", report::kReportSchema},
      {"kind", "bench"},
      {"status", "complete"},
      {"run_id", fmt::format("{}-{}-{}", b.label, n, seed)},
      {"command_line", {"dlsize", "bench"}},
      {"config",
       {{"seed", seed}, {"accelerators", n}, {"dataset", "/data/" + b.label}, {"label", b.label}}},
      {"workload",
       {{"name", "resnet50"},
        {"mean_sample_bytes", 114660},
        {"accelerator", {{"type", "h100"}, {"batch_size", 8}}}}},
      {"topology", {{"accelerators", n}, {"nodes", 1}}},
      {"dataset", {{"path", "/data/" + b.label}, {"fs_type", "ext4"}, {"bytes", 1e9}}},
      {"io",
       {{"max_read_rate", b.cap < 1e12 ? nlohmann::json(b.cap) : nlohmann::json(nullptr)},
        {"cache_mode", "direct"}}},
      {"storage", {{"hit_ratio", 0.0}}},
      {"summary", summary}};
  return analysis::loaded_report::of(fmt::format("{}-n{}-r{}.json", b.label, n, seed), r);
}

analysis::report_inputs runs_of(const std::vector<backend_runs>& backends,
                                const std::vector<double>& counts) {
  analysis::report_inputs in;
  for (const auto& b : backends)
    for (int seed = 1; seed <= 3; ++seed)
      for (double n : counts)
        in.reports.push_back(run(b, n, seed));
  return in;
}

analysis::sizing_document size_of(const analysis::report_inputs& in,
                                  analysis::sizing_request req = {}) {
  return analysis::make_sizing(in, req, {"dlsize", "size"});
}

const analysis::backend_answer& verdict(const analysis::answer_row& row, const std::string& name) {
  for (const auto& b : row.backends)
    if (b.backend.find(name) != std::string::npos)
      return b;
  FAIL("no backend " << name);
  return row.backends.front();
}

} // namespace

TEST_CASE("one load on two backends has one requirement, pooled, and one required figure",
          "[answer]") {
  const auto d = size_of(runs_of({{"fast"}, {"capped", 100e6}}, {1, 2, 4, 8}));
  REQUIRE(d.requirements.size() == 1);
  REQUIRE(d.answers.size() == 1);
  const auto& r = d.requirements[0];
  CHECK(r.backends.size() == 2);
  CHECK(r.source() == "measured");
  CHECK(r.measured == Approx(40e6).epsilon(0.01));
  CHECK(r.planned == Approx(40e6));
  CHECK(r.measured_at_threshold == Approx(0.9 * r.measured));
  CHECK(r.reasons.empty()); // within 5 %
  // Both series project the load's requirement, not one line each.
  REQUIRE(d.series.size() == 2);
  for (std::size_t i = 0; i < d.series[0].projections.size(); ++i)
    CHECK(d.series[0].projections[i].required == Approx(d.series[1].projections[i].required));
  const auto& row = d.answers[0].rows.front();
  CHECK(row.accelerators == 64);
  CHECK(row.required == Approx(d.series[0].projections.front().required));
  CHECK(row.required == Approx(r.reads_at(64)));
  CHECK(row.provision == Approx(1.2 * row.required_high));
  CHECK(row.required_low > 0);
  CHECK(row.required_low == Approx(row.required * row.required / row.required_high));
}

TEST_CASE("a capped backend does not hold, with its knee near the cap's; a busy client is not "
          "determined",
          "[answer]") {
  // The client of "fast" was busy in every run and read 80 % of the demand: each run is a lower
  // bound of that backend.
  const auto d =
      size_of(runs_of({{"fast", 1e12, 1.0, 1, 0.8}, {"capped", 100e6}}, {1, 2, 3, 4, 6, 8}));
  const auto& a = d.answers.at(0);
  const auto& capped = verdict(a.rows.front(), "capped");
  CHECK(capped.kind == analysis::holds_kind::does_not_hold);
  CHECK_FALSE(capped.at_least);
  CHECK(capped.delivers == Approx(100e6).epsilon(0.02));
  REQUIRE(capped.knee_accelerators);
  CHECK(std::fabs(*capped.knee_accelerators - 2.5) <= 1.0); // the cap's knee: 100 ÷ 40
  CHECK_THAT(capped.text, Contains("does not hold"));
  const auto& fast = verdict(a.rows.front(), "fast");
  CHECK(fast.kind == analysis::holds_kind::not_determined);
  CHECK(fast.at_least);
  CHECK_THAT(fast.text, Contains("at least"));
  CHECK_THAT(fast.text, Contains("client-limited"));
  CHECK_THAT(a.recommendation, Contains("fast's ceiling was not reached from 1 client"));
  CHECK_THAT(a.recommendation, Contains("No backend measured here is shown to hold 64"));
  // The busy client's runs are left out of the requirement: only the capped backend's measure it.
  CHECK(d.requirements[0].client_limited_runs == 18);
}

TEST_CASE("a backend whose ceiling is above the provision holds, with its margin", "[answer]") {
  analysis::sizing_request req;
  req.targets = {2, 4};
  const auto d = size_of(runs_of({{"big", 300e6}}, {1, 2, 4, 8, 12, 16}), req);
  const auto& a = d.answers.at(0);
  const auto& at4 = verdict(a.rows.back(), "big");
  CHECK(at4.kind == analysis::holds_kind::holds);
  CHECK_FALSE(at4.at_least);
  CHECK(at4.margin == Approx(at4.delivers / a.rows.back().provision - 1));
  CHECK(at4.margin > 0.3);
  CHECK_THAT(a.recommendation, Contains("big, capped at 300.0 MB/s holds 4 h100 with"));
}

TEST_CASE("data growth rows a cache cannot change are one row; prices keep them apart",
          "[answer]") {
  const auto in = runs_of({{"fast"}, {"capped", 100e6}}, {1, 2, 4, 8});
  const auto d = size_of(in);
  const auto& a = d.answers.at(0);
  REQUIRE(a.rows.size() == 3); // 64, 128, 256; growth 1, 2, 4 each
  CHECK(a.rows[0].growth == std::vector<double>{1, 2, 4});
  CHECK_THAT(a.cache_note, Contains("needs the same bandwidth"));
  analysis::sizing_request req;
  req.prices["capped"] = analysis::parse_backend_option("capped:price_per_gbps=1000,price_per_tb="
                                                        "10,usable_tb=0.0005")
                             .second;
  req.prices["fast"] = analysis::parse_backend_option("fast:price_per_gbps=2000").second;
  const auto priced = size_of(in, req).answers.at(0);
  REQUIRE(priced.rows.size() == 9);
  const auto& row = priced.rows[0];
  const auto& capped = verdict(row, "capped");
  REQUIRE(capped.cost);
  CHECK(capped.cost->bandwidth == Approx(row.provision / 1e9 * 1000));
  CHECK(capped.cost->capacity == Approx(row.capacity_bytes / 1e12 * 10));
  CHECK(capped.cost->per_accelerator == Approx(capped.cost->total / 64));
  CHECK(capped.cost->capacity_fits == std::optional<bool>(false)); // 1 GB > 0.0005 TB
  CHECK(row.cheapest.empty());                                     // nobody holds 64
}

TEST_CASE("measured and planned demand more than 5 % apart name the read amplification",
          "[answer]") {
  backend_runs amplified{"amp"};
  amplified.bytes_scale = 1.1;
  const auto d = size_of(runs_of({amplified}, {1, 2, 4}));
  const auto& r = d.requirements.at(0);
  CHECK(r.difference == Approx(0.1).epsilon(0.05));
  REQUIRE_FALSE(r.reasons.empty());
  CHECK_THAT(r.reasons.front(), Contains("read amplification ×1.100"));
  const auto lines = render::requirement_lines(r);
  CHECK_THAT(lines.back(), Contains("differ by more than 5 %"));
}

TEST_CASE("the answer's table has one unit, one required figure per target and every backend",
          "[answer]") {
  const auto d = size_of(runs_of({{"fast"}, {"capped", 100e6}}, {1, 2, 4, 8}));
  const auto t = render::answer_table(d.answers.at(0));
  CHECK_THAT(t.header[2], Contains("GB/s"));
  CHECK(t.header.size() == 6); // accelerators, growth, required, provision, 2 backends
  REQUIRE(t.rows.size() == 3);
  CHECK_THAT(t.rows[0][5], Contains("does not hold: ceiling 0.1"));
  const std::string screen = render::answer_terminal(d.answers.at(0), d.requirements.at(0));
  CHECK_THAT(screen, Contains("Recommendation:"));
  CHECK_THAT(screen, Contains("Requirement per h100: planned 40 MB/s at AU 100 % (36 at AU 90 %)"));
}

TEST_CASE("a log-symmetric interval never reaches zero and keeps its top", "[answer]") {
  CHECK(analysis::log_interval_low(10, 20) == Approx(5));
  CHECK(analysis::log_interval_low(10, 1e6) > 0);
  CHECK(std::isnan(analysis::log_interval_low(10, std::nan(""))));
}

TEST_CASE("a backend's prices are LABEL:key=value pairs and anything else is refused by name",
          "[answer]") {
  const auto [label, p] =
      analysis::parse_backend_option("nas-a:price_per_tb=120,usable_tb=500,price_per_gbps=900");
  CHECK(label == "nas-a");
  CHECK(*p.price_per_tb == 120);
  CHECK(*p.price_per_gbps == 900);
  CHECK(*p.usable_tb == 500);
  CHECK(p.priced());
  CHECK_THROWS_WITH(analysis::parse_backend_option("nas-a"), Contains("--backend: 'nas-a'"));
  CHECK_THROWS_WITH(analysis::parse_backend_option("a:price=1"), Contains("valid keys"));
  CHECK_THROWS_WITH(analysis::parse_backend_option("a:price_per_tb=-1"), Contains("a number >= 0"));
  CHECK_THROWS_WITH(analysis::parse_backend_option("a:usable_tb=1,usable_tb=2"),
                    Contains("given twice"));
  CHECK_THROWS_AS(analysis::read_backends_file("/no/such/backends.json"), usage_error);
}

TEST_CASE("the answer's schema is one definition in the sizing, compare and plan schemas",
          "[answer]") {
  const auto defs = [](const std::string& file, const char* key) {
    std::ifstream in(std::string(DLSIZE_SOURCE_DIR) + "/docs/" + file);
    const auto j = nlohmann::json::parse(in);
    nlohmann::json d = j.at(key);
    // Each file names its own definitions' place in the answer's $ref.
    d["answer"]["properties"]["requirement"]["$ref"] = "requirement";
    return nlohmann::json{{"answer", d.at("answer")}, {"requirement", d.at("requirement")}};
  };
  const auto sizing = defs("sizing.schema.json", "definitions");
  CHECK(defs("compare.schema.json", "definitions") == sizing);
  CHECK(defs("plan.schema.json", "$defs") == sizing);
}
