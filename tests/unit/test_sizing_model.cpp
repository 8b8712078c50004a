// Unit tests for src/analysis: Student's t, the least-squares fit and its intervals, the cache
// models, and plan against hand-computed demand of the MLPerf Storage presets.
#include <cmath>
#include <tuple>
#include <vector>

#include <catch2/catch.hpp>

#include "test_support.hpp"

#include "analysis/cache_model.hpp"
#include "analysis/layouts.hpp"
#include "analysis/linear_fit.hpp"
#include "analysis/plan.hpp"
#include "analysis/student_t.hpp"
#include "config/accelerator_spec.hpp"
#include "config/workload.hpp"

using namespace dlsize;
using Catch::Matchers::Contains;

TEST_CASE("student_t_quantile matches the printed t table", "[sizing]") {
  // t(0.975, df) from standard tables.
  const std::vector<std::pair<double, double>> table = {{1, 12.7062}, {2, 4.3027},  {3, 3.1824},
                                                        {5, 2.5706},  {10, 2.2281}, {30, 2.0423},
                                                        {120, 1.9799}};
  for (const auto& [df, t] : table) {
    INFO("df " << df);
    CHECK(analysis::student_t_quantile(0.975, df) == Approx(t).epsilon(1e-4));
  }
  CHECK(analysis::student_t_quantile(0.5, 7) == Approx(0.0).margin(1e-6));
  CHECK(analysis::student_t_cdf(0, 4) == Approx(0.5));
  CHECK(analysis::student_t_cdf(-2.7764, 4) == Approx(0.025).epsilon(1e-3));
}

TEST_CASE("fit_line recovers an exact line with zero residuals", "[sizing]") {
  const std::vector<double> x = {1, 2, 4, 8, 16};
  std::vector<double> y;
  for (double v : x)
    y.push_back(3.5 + 250.0 * v);
  const auto f = analysis::fit_line(x, y);
  CHECK(f.slope == Approx(250.0));
  CHECK(f.intercept == Approx(3.5));
  CHECK(f.r2 == Approx(1.0));
  CHECK(f.residual_stdev == Approx(0.0).margin(1e-9));
  for (double r : f.residuals)
    CHECK(r == Approx(0.0).margin(1e-9));
  CHECK(f.predict(32) == Approx(3.5 + 8000.0));
}

TEST_CASE("fit_line intervals equal the textbook formulas on a worked example", "[sizing]") {
  // x = 1..5, y = 2 4 5 4 5: slope 0.6, intercept 2.2, SSE 2.4, s = sqrt(0.8), Sxx = 10,
  // t(0.975, 3) = 3.18245.
  const auto f = analysis::fit_line({1, 2, 3, 4, 5}, {2, 4, 5, 4, 5});
  CHECK(f.slope == Approx(0.6));
  CHECK(f.intercept == Approx(2.2));
  CHECK(f.sse == Approx(2.4));
  CHECK(f.r2 == Approx(0.6));
  CHECK(f.residual_stdev == Approx(std::sqrt(0.8)));
  CHECK(f.slope_stderr == Approx(std::sqrt(0.8) / std::sqrt(10.0)));
  CHECK(f.intercept_stderr == Approx(std::sqrt(0.8) * std::sqrt(1.0 / 5 + 9.0 / 10)));
  const double t = 3.182446;
  CHECK(f.confidence_half_width(3) == Approx(t * std::sqrt(0.8) * std::sqrt(0.2)).epsilon(1e-5));
  CHECK(f.prediction_half_width(3) == Approx(t * std::sqrt(0.8) * std::sqrt(1.2)).epsilon(1e-5));
  CHECK(f.prediction_half_width(8) ==
        Approx(t * std::sqrt(0.8) * std::sqrt(1.2 + 25.0 / 10)).epsilon(1e-5));
  // Intervals widen away from the mean of x.
  CHECK(f.confidence_half_width(8) > f.confidence_half_width(3));
}

TEST_CASE("fit_line refuses too few points and a single x", "[sizing]") {
  CHECK_THAT(test::usage_error_message([] { (void)analysis::fit_line({1}, {2}); }),
             Contains("at least two"));
  CHECK_THAT(test::usage_error_message([] {
               (void)analysis::fit_line({2, 2, 2}, {1, 2, 3});
             }),
             Contains("distinct x"));
  const auto two = analysis::fit_line({1, 2}, {1, 3});
  CHECK(two.slope == Approx(2.0));
  CHECK(std::isnan(two.prediction_half_width(1.5)));
}

TEST_CASE("cache models give the hit ratios of the sizing method", "[sizing]") {
  CHECK(analysis::never_evict_hit_ratio(50, 100) == Approx(0.5));
  CHECK(analysis::never_evict_hit_ratio(300, 100) == Approx(1.0));
  // f + (1 − f) ln(1 − f): 0.153 at f = 0.5 and 0.0342 at f = 0.25 (REFERENCE: 0.15, 0.035).
  CHECK(analysis::lru_hit_ratio(50, 100) == Approx(0.5 + 0.5 * std::log(0.5)));
  CHECK(analysis::lru_hit_ratio(50, 100) == Approx(0.153).margin(0.001));
  CHECK(analysis::lru_hit_ratio(25, 100) == Approx(0.0342).margin(0.0005));
  CHECK(analysis::lru_hit_ratio(100, 100) == Approx(1.0));
  CHECK(analysis::lru_hit_ratio(0, 100) == Approx(0.0));
}

namespace {
analysis::plan_inputs plan_for(const char* workload, const char* type) {
  analysis::plan_inputs in;
  in.workload = config::load_workload(workload);
  in.accelerator = config::resolve_accelerator(std::string("emulated:") + type, in.workload, {});
  in.au_threshold = in.workload.au_threshold;
  return in;
}
} // namespace

TEST_CASE("plan's demand equals batch x bytes / compute time for the MLPerf presets", "[sizing]") {
  // Hand-computed: unet3d h100 7 × 146,600,628 / 0.323; resnet50 a100 400 × 114,660 / 0.435;
  // cosmoflow h100 1 × 2,828,486 / 0.0035.
  CHECK(analysis::make_plan(plan_for("unet3d", "h100")).demand_bytes_per_s_per_accelerator ==
        Approx(7.0 * 146600628 / 0.323));
  CHECK(analysis::make_plan(plan_for("resnet50", "a100")).demand_bytes_per_s_per_accelerator ==
        Approx(400.0 * 114660 / 0.435));
  CHECK(analysis::make_plan(plan_for("cosmoflow", "h100")).demand_bytes_per_s_per_accelerator ==
        Approx(2828486 / 0.0035));
  // In MiB/s, REFERENCE's derived figures: unet3d h100 ≈ 3,030, a100 ≈ 1,539; resnet50 h100
  // ≈ 195, a100 ≈ 101; cosmoflow h100 ≈ 771.
  const std::vector<std::tuple<const char*, const char*, double>> derived = {
      {"unet3d", "h100", 3030},
      {"unet3d", "a100", 1539},
      {"resnet50", "h100", 195},
      {"resnet50", "a100", 101},
      {"cosmoflow", "h100", 771}};
  for (const auto& [w, a, mib] : derived) {
    INFO(w << " " << a);
    CHECK(analysis::make_plan(plan_for(w, a)).demand_bytes_per_s_per_accelerator / 1048576 ==
          Approx(mib).epsilon(0.005));
  }
}

TEST_CASE("plan sizes bandwidth, accelerators and the dataset of a valid run", "[sizing]") {
  auto in = plan_for("resnet50", "h100");
  const double demand = 400.0 * 114660 / 0.224;
  in.storage_bandwidth = 20e9;
  in.client_ram = 512ull << 30;
  in.clients = 4;
  const auto p = analysis::make_plan(in);
  // O_DIRECT reads 1.0357× the records' bytes: 20 GB/s ÷ (0.9 × demand × 1.0357) = 104.8, so
  // 104 accelerators pass at the threshold (108 on the samples' bytes alone).
  const double amp = p.read_amplification;
  CHECK(amp == Approx(1.0357).margin(0.0005));
  REQUIRE(p.storage);
  CHECK(p.storage->max_accelerators_at_threshold == 104);
  CHECK(p.accelerators == 104);
  CHECK(p.required_bytes_per_s == Approx(104 * 0.9 * demand * amp));
  CHECK(p.iops == Approx(104 * 400 / 0.224)); // one 1 MiB request a record
  REQUIRE(p.dataset.ram);
  CHECK(p.dataset.ram->min_bytes == Approx(5.0 * 4 * (512ull << 30)));
  CHECK(p.dataset.min_bytes_for_steps == Approx(500.0 * 104 * 400 * 114660));
  CHECK(p.dataset.min_bytes == Approx(5.0 * 4 * (512ull << 30)));
  in.accelerators = 8;
  in.storage_bandwidth = 0;
  const auto q = analysis::make_plan(in);
  CHECK(q.required_bytes_per_s == Approx(8 * 0.9 * demand * amp));
  CHECK_FALSE(q.storage);
}

TEST_CASE("layouts put equal counts on different node counts side by side", "[sizing]") {
  std::vector<analysis::run_point> runs;
  auto add = [&](double n, double nodes, double sps) {
    analysis::run_point p;
    p.accelerators = n;
    p.nodes = nodes;
    p.samples_per_s = sps;
    p.samples_per_s_per_accelerator = sps / n;
    runs.push_back(p);
  };
  add(1, 1, 100);
  add(8, 1, 780);
  add(8, 2, 720);
  add(8, 2, 740);
  add(4, 1, 400); // one layout only: no row
  const auto rows = analysis::layout_rows(runs);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].nodes == 1);
  CHECK(rows[1].nodes == 2);
  CHECK(rows[1].accelerators_per_node == 4);
  CHECK(rows[1].runs == 2);
  CHECK(rows[1].samples_per_s.median == Approx(730));
  CHECK(rows[0].efficiency_vs_linear.value() == Approx(780.0 / 800));
  CHECK(rows[1].difference_vs_fewest_nodes.value() == Approx(730.0 / 780 - 1));
  CHECK(analysis::layout_rows({}).empty());
}

TEST_CASE("a layout declared on one host is never put beside real hosts", "[sizing]") {
  std::vector<analysis::run_point> runs;
  auto add = [&](double n, double nodes, bool declared, double sps) {
    analysis::run_point p;
    p.accelerators = n;
    p.nodes = nodes;
    p.declared_nodes = declared;
    p.samples_per_s = sps;
    p.samples_per_s_per_accelerator = sps / n;
    runs.push_back(p);
  };
  add(1, 1, false, 100);
  add(8, 1, false, 780);
  add(8, 2, false, 720);
  add(8, 2, true, 700);
  add(8, 4, true, 650);
  add(4, 1, false, 400); // one real layout and one declared: two kinds, no rows
  add(4, 2, true, 380);
  const auto rows = analysis::layout_rows(runs);
  REQUIRE(rows.size() == 4);
  CHECK(rows[0].declared == false);
  CHECK(rows[1].declared == false);
  CHECK(rows[1].nodes == 2);
  CHECK(rows[1].samples_per_s.median == Approx(720));
  CHECK(rows[1].difference_vs_fewest_nodes.value() == Approx(720.0 / 780 - 1));
  // The declared 2-node run is its own kind's reference, not the real 1-node run.
  CHECK(rows[2].declared == true);
  CHECK(rows[2].nodes == 2);
  CHECK(rows[2].runs == 1);
  CHECK(rows[2].difference_vs_fewest_nodes.value() == Approx(0));
  CHECK(rows[3].declared == true);
  CHECK(rows[3].difference_vs_fewest_nodes.value() == Approx(650.0 / 700 - 1));
}
