// Unit tests for src/analysis/goodput.hpp: the intervals against published worked values, the
// split against Daly's complete cost function, the case where checkpoints cannot keep up, the
// inverse solve, and the closed form against a discrete-event simulation of exponential
// failures, checkpoints and restarts (goodput_simulation.hpp): over a grid of checkpoint time δ,
// restart time R and interval τ (the system MTTF M the unit), synchronous and asynchronous, the
// simulated shares of the wall time agree with the model's within 1 % absolute (200,000
// failures per point, from a fixed seed). The expected figures were computed by hand and with
// python3 from the published formulas, not with the code under test.
#include <cmath>
#include <cstdint>

#include <catch2/catch.hpp>

#include "analysis/goodput.hpp"
#include "goodput_simulation.hpp"

namespace {

using namespace dlsize::analysis;

constexpr double kMin = 60;
constexpr double kHour = 3600;
constexpr std::uint64_t kFailures = 200000;
constexpr double kTolerance = 0.01;

void check_against_simulation(double interval_s, const checkpoint_costs& c, double m,
                              std::uint64_t seed) {
  CAPTURE(interval_s, c.pause_s, c.drain_s, c.restart_s, m);
  const goodput_split model = goodput_at(interval_s, c, m);
  const dlsize::test::simulated_job sim =
      dlsize::test::simulate_job(interval_s, c, m, kFailures, seed);
  CAPTURE(model.useful, sim.share(sim.useful));
  CHECK(std::abs(sim.share(sim.useful) - model.useful) < kTolerance);
  CHECK(std::abs(sim.share(sim.checkpoints) - model.checkpoints) < kTolerance);
  CHECK(std::abs(sim.share(sim.rework()) - model.rework) < kTolerance);
  CHECK(std::abs(sim.share(sim.restarts) - model.restarts) < kTolerance);
}

} // namespace

TEST_CASE("Young's interval is the square root of twice the checkpoint time and the MTTF",
          "[goodput]") {
  // Low et al., "Distributed GraphLab" (VLDB 2012), applying Young (1974): 64 machines of
  // a 1-year MTBF each, a 2-minute checkpoint: "optimal checkpoint intervals of 3 hrs".
  // By hand: M = 525,600 min / 64 = 8,212.5 min; √(2 × 2 × 8,212.5) = 181.2457 min.
  const double m = system_mttf(365 * 24 * kHour, 64);
  CHECK(m == Approx(8212.5 * kMin));
  CHECK(young_interval(2 * kMin, m) / kMin == Approx(181.2456896).epsilon(1e-9));
  CHECK(young_interval(2 * kMin, m) / kHour == Approx(3).epsilon(0.01));
  // Daly (2006) compares his estimate with Young's at M = 24 h, δ = 5 min: √(2·5·1440) = 120.
  CHECK(young_interval(5 * kMin, 24 * kHour) / kMin == Approx(120).epsilon(1e-12));
}

TEST_CASE("Daly's higher-order interval matches the optima his paper prints", "[goodput]") {
  // Daly, "A higher order estimate of the optimum checkpoint interval for restart dumps", Future
  // Generation Computer Systems 22 (2006) 303-312, Figs. 3-5 (R = 10 min, δ = 5 min): "The new
  // model predicts τopt = 117 min" at M = 24 h, 57 min at M = 6 h, 9.1 min at M = 15 min.
  // python3, √(2δM)·(1 + √(δ/2M)/3 + δ/(18M)) − δ: 116.68981481, 56.71296296, 9.14091999 min.
  const struct {
    double m_min, paper_min, exact_min;
  } cases[] = {{24 * 60, 117, 116.6898148148148},
               {6 * 60, 57, 56.712962962962955},
               {15, 9.1, 9.140919986395813}};
  for (const auto& c : cases) {
    CAPTURE(c.m_min);
    const auto tau = daly_interval(5 * kMin, c.m_min * kMin);
    REQUIRE(tau);
    CHECK(*tau / kMin == Approx(c.exact_min).epsilon(1e-9));
    CHECK(std::abs(*tau / kMin - c.paper_min) < 0.5); // the paper's rounding
  }
}

TEST_CASE("The useful share at Daly's interval is his complete cost function's", "[goodput]") {
  // Daly (2006), the complete model: T_w = M·e^{R/M}·(e^{(τ+δ)/M} − 1)·T_s/τ. At Fig. 3's
  // M = 24 h, R = 10 min, δ = 5 min, T_s = 500 h and τ = 116.6898 min, python3 gives T_w =
  // 32,872.9069 min (547.88 h): T_s / T_w = 0.9126056314; at M = 6 h 0.8193814430, at M = 15 min
  // 0.1996673448.
  const struct {
    double m_min, useful;
  } cases[] = {
      {24 * 60, 0.9126056313785335}, {6 * 60, 0.8193814430413903}, {15, 0.19966734477488166}};
  for (const auto& c : cases) {
    CAPTURE(c.m_min);
    const checkpoint_costs costs{5 * kMin, 0, 10 * kMin};
    const goodput_estimate e = estimate_goodput(costs, c.m_min * kMin);
    REQUIRE(e.split);
    CHECK(e.split->useful == Approx(c.useful).epsilon(1e-9));
    CHECK(e.split->useful + e.split->loss() == Approx(1).epsilon(1e-12));
    CHECK(e.split->checkpoints > 0);
    CHECK(e.split->rework > 0);
    // A failure every M costs the restart R = 10 min with its own failures: 1 − e^{−R/M}.
    CHECK(e.split->restarts == Approx(-std::expm1(-10.0 / c.m_min)).epsilon(1e-12));
  }
}

TEST_CASE("The loss of llama3-70b on 16,384 accelerators splits in three", "[goodput]") {
  // 911 GiB at 100 GB/s: δ = 9.7818 s, restore the same plus 300 s; M = 50,000 h / 16,384 =
  // 10,986.33 s. python3: τ = 457.1092 s; checkpoints 0.019938665, rework 0.020511631, restarts
  // 0.027803201, useful 0.931746504.
  const double bytes = (130.0 + 781) * 1024 * 1024 * 1024;
  const double delta = bytes / 100e9;
  const goodput_estimate e =
      estimate_goodput({delta, 0, 300 + delta}, system_mttf(50000 * kHour, 16384));
  CHECK(e.system_mttf_s == Approx(10986.328125));
  REQUIRE(e.interval_s);
  CHECK(*e.interval_s == Approx(457.1091878158798).epsilon(1e-9));
  REQUIRE(e.split);
  CHECK(e.split->checkpoints == Approx(0.01993866461356523).epsilon(1e-9));
  CHECK(e.split->rework == Approx(0.02051163051410325).epsilon(1e-9));
  CHECK(e.split->restarts == Approx(0.027803200845075454).epsilon(1e-9));
  CHECK(e.split->useful == Approx(0.9317465040272561).epsilon(1e-9));
}

TEST_CASE("Checkpoints that take twice the system MTTF cannot keep up", "[goodput]") {
  const double m = 100;
  CHECK_FALSE(daly_interval(200, m));
  CHECK_FALSE(daly_interval(1e6, m));
  CHECK(daly_interval(199.9, m));
  const goodput_estimate e = estimate_goodput({250, 0, 10}, m);
  CHECK_FALSE(e.keeps_up());
  CHECK_FALSE(e.interval_s);
  CHECK_FALSE(e.split);
  CHECK(e.loss() == 1);
  CHECK(e.young_s == Approx(std::sqrt(2 * 250 * 100.0)));
  CHECK_THROWS_AS(estimate_goodput({0, 0, 10}, m), std::invalid_argument);
}

TEST_CASE("An asynchronous checkpoint pauses for the copy and drains within the interval",
          "[goodput]") {
  const double m = 10000;
  // The drain shorter than Daly's interval for the pause: the interval is Daly's, and the
  // checkpoints that become durable are e^{−D/M} of the synchronous count.
  const checkpoint_costs fast{2, 60, 300};
  const goodput_estimate e = estimate_goodput(fast, m);
  REQUIRE(e.interval_s);
  CHECK_FALSE(e.drain_bound);
  CHECK(*e.interval_s == Approx(*daly_interval(2, m)));
  const goodput_split sync = goodput_at(*e.interval_s, {2, 0, 300}, m);
  CHECK(e.split->useful == Approx(sync.useful * std::exp(-60.0 / m)).epsilon(1e-12));
  CHECK(e.split->useful + e.split->loss() == Approx(1).epsilon(1e-12));
  // A drain longer than Daly's interval sets the interval.
  const goodput_estimate slow = estimate_goodput({2, 900, 300}, m);
  CHECK(slow.drain_bound);
  CHECK(*slow.interval_s == 900);
}

TEST_CASE("The bandwidth for a target loss gives that loss back", "[goodput]") {
  const double bytes = 978e9, m = system_mttf(50000 * kHour, 16384);
  auto costs = [&](double bw) { return checkpoint_costs{bytes / bw, 0, 300 + bytes / 200e9}; };
  for (const double known : {50e9, 100e9, 400e9, 2e12}) {
    CAPTURE(known);
    const double loss = estimate_goodput(costs(known), m).loss();
    const auto solved = bandwidth_for_loss(costs, m, loss);
    REQUIRE(solved);
    CHECK(std::abs(*solved / known - 1) < 1e-3); // round trip within 0.1 %
    CHECK(std::abs(estimate_goodput(costs(*solved), m).loss() / loss - 1) < 1e-3);
  }
  // The restarts alone lose 1 − e^{−R/M}: a target below that has no bandwidth.
  const double restarts_only = -std::expm1(-(300 + bytes / 200e9) / m);
  CHECK_FALSE(bandwidth_for_loss(costs, m, restarts_only * 0.99));
  CHECK(bandwidth_for_loss(costs, m, restarts_only * 1.01));
}

TEST_CASE("Simulated synchronous checkpointing agrees with the closed form within 1 %",
          "[goodput][simulation]") {
  const double m = 1000;
  std::uint64_t seed = 20061;
  for (const double delta : {1.0, 10.0, 100.0})
    for (const double restart : {30.0, 300.0}) {
      const double daly = *daly_interval(delta, m);
      for (const double factor : {0.5, 1.0, 3.0})
        check_against_simulation(daly * factor, {delta, 0, restart}, m, ++seed);
    }
}

TEST_CASE("Simulated asynchronous checkpointing agrees with the closed form within 1 %",
          "[goodput][simulation]") {
  const double m = 1000;
  std::uint64_t seed = 19740;
  for (const double pause : {0.5, 5.0})
    for (const double drain_share : {0.3, 0.9}) {
      const double interval = *daly_interval(pause, m) * 2;
      check_against_simulation(interval, {pause, interval * drain_share, 100}, m, ++seed);
    }
  // The estimate's own interval, raised to a drain longer than Daly's.
  const checkpoint_costs drained{1, 120, 60};
  const goodput_estimate e = estimate_goodput(drained, m);
  REQUIRE(e.drain_bound);
  check_against_simulation(*e.interval_s, drained, m, 7);
}
