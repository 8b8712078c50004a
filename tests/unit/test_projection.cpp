// Unit tests for src/analysis/scaling_model and projection: the measured table, the knee and
// ceiling of a capped backend, the requirement fitted below the knee, and projections with
// their intervals, cache models, headroom, physical limits and warnings.
#include <cmath>
#include <vector>

#include <catch2/catch.hpp>

#include "analysis/cache_model.hpp"
#include "analysis/projection.hpp"
#include "analysis/scaling_model.hpp"

using namespace dlsize;
using Catch::Matchers::Contains;

namespace {

// Runs of a backend capped at `cap` bytes/s under a demand of `demand` per accelerator:
// bandwidth min(n·demand, cap), AU min(1, cap / (n·demand)), a small fixed wobble per repeat.
std::vector<analysis::run_point> capped_runs(const std::vector<double>& counts, double demand,
                                             double cap, int repeats = 3) {
  std::vector<analysis::run_point> runs;
  const double wobble[] = {1.0, 0.995, 1.004};
  for (int r = 0; r < repeats; ++r)
    for (double n : counts) {
      analysis::run_point p;
      p.file = "n" + std::to_string(static_cast<int>(n));
      p.accelerators = n;
      p.read_bytes_per_s = std::min(n * demand, cap) * wobble[r % 3];
      p.accelerator_utilization = std::min(1.0, cap / (n * demand));
      p.samples_per_s_per_accelerator = 100 * p.accelerator_utilization;
      p.samples_per_s = n * p.samples_per_s_per_accelerator;
      p.au_pass = p.accelerator_utilization >= 0.9;
      runs.push_back(p);
    }
  return runs;
}

analysis::projection_options options(double demand) {
  analysis::projection_options o;
  o.targets = {16, 64};
  o.growth = {1, 2};
  o.headroom = 1.25;
  o.dataset_bytes = 100e9;
  o.demand_per_accelerator = demand;
  return o;
}

} // namespace

TEST_CASE("analyse_scaling tabulates medians, efficiency and the AU knee per count", "[sizing]") {
  const auto a = analysis::analyse_scaling(capped_runs({1, 2, 4, 6, 8}, 40e6, 200e6), 0.9);
  REQUIRE(a.counts.size() == 5);
  CHECK(a.counts[0].runs == 3);
  CHECK(a.counts[1].read_bytes_per_s.median == Approx(80e6));
  CHECK(a.counts[1].read_bytes_per_s.min == Approx(80e6 * 0.995));
  CHECK(a.counts[4].scaling_efficiency == Approx(200.0 / 320));
  CHECK(a.counts[3].au_passes == 0);
  // AU 200/240 = 0.83 at 6: the first count below 0.9; 4 is the last that passes.
  REQUIRE(a.au_knee);
  CHECK(*a.au_knee == 6);
  CHECK(*a.most_passing == 4);
}

TEST_CASE("analyse_scaling finds the cap's knee, its ceiling and the line below it", "[sizing]") {
  const auto a = analysis::analyse_scaling(capped_runs({1, 2, 3, 4, 6, 8}, 40e6, 200e6), 0.9);
  REQUIRE(a.knee.chosen);
  CHECK(a.knee.hinge.breakpoint == Approx(5).margin(1)); // within one sweep step of 5
  REQUIRE(a.ceiling);
  CHECK(*a.ceiling == Approx(200e6).epsilon(0.01));
  REQUIRE(a.demand_line);
  // Bytes read ÷ AU of every run: the saturated runs, normalised, lie on the same line.
  CHECK(a.demand_line->n == 18);
  CHECK(a.demand_line->slope == Approx(40e6).epsilon(0.01));
  CHECK_THAT(a.demand_basis, Contains("÷ AU"));
}

TEST_CASE("analyse_scaling keeps every run in the requirement's line without a knee", "[sizing]") {
  const auto a = analysis::analyse_scaling(capped_runs({1, 2, 4, 8}, 40e6, 1e12), 0.9);
  CHECK_FALSE(a.knee.chosen);
  CHECK_FALSE(a.ceiling);
  CHECK_FALSE(a.au_knee);
  CHECK(*a.most_passing == 8);
  REQUIRE(a.demand_line);
  CHECK(a.demand_line->n == 12);
  CHECK(a.best_bytes_per_s == Approx(320e6));
}

TEST_CASE("projections below the knee come from its line with the prediction interval",
          "[sizing]") {
  const auto a = analysis::analyse_scaling(capped_runs({1, 2, 3, 4, 6, 8}, 40e6, 200e6), 0.9);
  auto o = options(40e6);
  const auto p = analysis::project(a, o);
  REQUIRE(p.size() == 4);
  const auto& p16 = p[0];
  CHECK(p16.accelerators == 16);
  CHECK(p16.reads == Approx(a.demand_line->predict(16)));
  CHECK(p16.reads_high - p16.reads == Approx(a.requirement_half_width(16)));
  // Wider than the textbook interval: the repeats' spread and the model's error are in it.
  CHECK(a.requirement_half_width(16) > a.demand_line->prediction_half_width(16));
  CHECK(p16.required == Approx(p16.reads)); // no cache in front
  CHECK(p16.provision == Approx(1.25 * p16.required_high));
  // The backend gives 200 MB/s against 640 MB/s: AU 0.31, it does not hold 16 accelerators,
  // and carries floor(200 / (40 × 0.9)) = 5 at the threshold.
  CHECK(p16.expected_accelerator_utilization == Approx(200.0 / 640).epsilon(0.02));
  CHECK(*p16.backend_holds == false);
  CHECK(*p16.max_accelerators == 5);
  CHECK_FALSE(p16.within_limit);
  const std::string w = p16.warnings[0] + p16.warnings[1];
  CHECK_THAT(w, Contains("beyond the measured range (1 to 8)"));
  CHECK_THAT(w, Contains("past the knee"));
}

TEST_CASE("projections are capped at the physical limit and warn above it", "[sizing]") {
  const auto a = analysis::analyse_scaling(capped_runs({1, 2, 4, 8}, 40e6, 1e12), 0.9);
  auto o = options(40e6);
  o.limit_bytes_per_s = 1e9;
  o.limit_source = "NIC 500 MB/s × 2 nodes";
  const auto p = analysis::project(a, o);
  // 16 × 40 MB/s = 640 MB/s, × 1.25 headroom (and the interval) stays under 1 GB/s; 64 does not.
  CHECK(*p[0].within_limit);
  CHECK(p[0].provision_capped == Approx(p[0].provision));
  CHECK_FALSE(*p[2].within_limit);
  CHECK(p[2].provision_capped == Approx(1e9));
  bool warned = false;
  for (const auto& w : p[2].warnings)
    warned = warned || w.find("NIC 500 MB/s × 2 nodes") != std::string::npos;
  CHECK(warned);
  // No knee: what the backend gives beyond 320 MB/s was not measured.
  CHECK_FALSE(p[2].backend_holds);
  CHECK(std::isnan(p[2].expected_accelerator_utilization));
}

TEST_CASE("data growth uses the measured hit ratio, then the cache model, never above it",
          "[sizing]") {
  auto o = options(40e6);
  o.cache_bytes = 50e9; // f = 0.5 at the measured size
  std::string source;
  o.measured_hit_ratio = 0.12;
  CHECK(analysis::projected_hit_ratio(o, 1, &source) == Approx(0.12));
  CHECK(source == "measured");
  // f = 0.25 at twice the data: LRU 0.0342, below the measured 0.12.
  CHECK(analysis::projected_hit_ratio(o, 2, &source) ==
        Approx(analysis::lru_hit_ratio(50e9, 200e9)));
  CHECK(source == "lru");
  o.cache_model = analysis::cache_model_kind::never_evict;
  // Never-evict at f = 0.25 hits 0.25, more than measured: capped at 0.12.
  CHECK(analysis::projected_hit_ratio(o, 2, &source) == Approx(0.12));
  CHECK_THAT(source, Contains("capped at the measured"));
  o.measured_hit_ratio = std::nan("");
  CHECK(analysis::projected_hit_ratio(o, 1, &source) == Approx(0.5));
  CHECK(source == "never-evict");

  const auto a = analysis::analyse_scaling(capped_runs({1, 2, 4, 8}, 40e6, 1e12), 0.9);
  o.cache_model = analysis::cache_model_kind::lru;
  o.measured_hit_ratio = 0.12;
  const auto p = analysis::project(a, o);
  CHECK(p[0].required == Approx(p[0].reads * (1 - 0.12)));
  CHECK(p[1].required == Approx(p[1].reads * (1 - analysis::lru_hit_ratio(50e9, 200e9))));
  CHECK(p[1].required > p[0].required); // more data, fewer hits, more bandwidth
}

TEST_CASE("a modelled scaling efficiency scales the reads, the interval and the most accelerators",
          "[sizing]") {
  const double demand = 100e6;
  const auto a = analysis::analyse_scaling(capped_runs({1, 2, 4, 8}, demand, 1e12), 0.9);
  auto o = options(demand);
  o.targets = {64};
  o.growth = {1};
  const auto plain = analysis::project(a, o);
  // An efficiency that falls with the count: 1 / (1 + n / 64), so 0.5 at 64.
  o.efficiency = [](double n) { return 1 / (1 + n / 64); };
  const auto scaled = analysis::project(a, o);
  REQUIRE(plain.size() == 1);
  REQUIRE(scaled.size() == 1);
  CHECK(plain[0].scaling_efficiency == 1);
  CHECK(scaled[0].scaling_efficiency == Approx(0.5));
  CHECK(scaled[0].reads == Approx(plain[0].reads * 0.5));
  REQUIRE(std::isfinite(plain[0].reads_high));
  CHECK(scaled[0].reads_high - scaled[0].reads ==
        Approx((plain[0].reads_high - plain[0].reads) * 0.5));
  // 3.2 GB/s of storage at AU 0.9 carries 35 linearly; with the efficiency n·e(n)·1e8 ≤ 3.56e9
  // gives n = 79 (79 · 64/143 · 1e8 = 3.54e9, 80 · 64/144 · 1e8 = 3.56e9 just above).
  const double storage = 3.2e9;
  const auto linear = analysis::max_accelerators_at_threshold(a, storage, 0, demand);
  const auto eff = analysis::max_accelerators_at_threshold(a, storage, 0, demand, o.efficiency);
  CHECK(linear == 35);
  CHECK(eff > linear);
  const double reads = storage / 0.9;
  const auto need = [&](double n) { return a.demand_line->predict(n) * o.efficiency(n); };
  CHECK(need(static_cast<double>(eff)) <= reads);
  CHECK(need(static_cast<double>(eff + 1)) > reads);
}

TEST_CASE("the repeats' noise is that of bytes read ÷ AU, not of the bandwidth", "[sizing]") {
  // At 8 accelerators the storage limits AU differently in each repeat (0.6 to 1), so the
  // bandwidth spreads 40 % while every run would have read exactly 8 × 40 MB/s at AU 1.
  std::vector<analysis::run_point> runs;
  const double au8[] = {0.6, 0.8, 1.0};
  for (int r = 0; r < 3; ++r)
    for (double n : {1.0, 2.0, 4.0, 8.0}) {
      analysis::run_point p;
      p.file = "n" + std::to_string(static_cast<int>(n)) + "-r" + std::to_string(r);
      p.accelerators = n;
      p.accelerator_utilization = n == 8 ? au8[r] : 1.0;
      p.read_bytes_per_s = n * 40e6 * p.accelerator_utilization;
      p.samples_per_s_per_accelerator = 100 * p.accelerator_utilization;
      p.samples_per_s = n * p.samples_per_s_per_accelerator;
      p.limit = n == 8 ? report::limit_kind::storage : report::limit_kind::nothing;
      runs.push_back(p);
    }
  const auto a = analysis::analyse_scaling(runs, 0.9);
  CHECK(a.repeat_cv == Approx(0).margin(1e-12));
  REQUIRE(a.demand_line);
  // The interval is the model error's alone: t × 0.5 % of the prediction at 8.
  CHECK(a.requirement_half_width(8) ==
        Approx(a.demand_line->t975 * analysis::kModelErrorFloor * 320e6).epsilon(1e-6));
  // The bandwidth's spread is still reported as two clusters.
  bool clusters = false;
  for (const auto& w : a.warnings)
    clusters = clusters || w.find("two clusters") != std::string::npos;
  CHECK(clusters);
}

TEST_CASE("the interval's noise follows the level and its model error grows past the range",
          "[sizing]") {
  // Noise proportional to the level (±0.5 % at every count): the absolute residuals come
  // from the largest count and would make the interval at 1 accelerator far too wide.
  const auto a = analysis::analyse_scaling(capped_runs({1, 2, 4, 8}, 40e6, 1e12), 0.9);
  REQUIRE(a.demand_line);
  const auto& f = *a.demand_line;
  REQUIRE(a.repeat_cv > 0);
  const auto expected = [&](double x, double reach) {
    const double level = f.predict(x), d = x - f.mean_x;
    const double line =
        f.residual_stdev * f.residual_stdev * (1.0 / static_cast<double>(f.n) + d * d / f.sxx);
    return f.t975 * std::sqrt(line + std::pow(a.repeat_cv * level, 2) +
                              std::pow(a.model_cv * reach * level, 2));
  };
  CHECK(a.requirement_half_width(1) == Approx(expected(1, 1)));
  CHECK(a.requirement_half_width(8) == Approx(expected(8, 1)));
  CHECK(a.requirement_half_width(32) == Approx(expected(32, 4))); // 4 × the largest count
  const double rel1 = a.requirement_half_width(1) / f.predict(1);
  const double rel8 = a.requirement_half_width(8) / f.predict(8);
  CHECK(rel1 < 2 * rel8);
  CHECK(a.requirement_half_width(32) / f.predict(32) >= f.t975 * 4 * a.model_cv);
}
