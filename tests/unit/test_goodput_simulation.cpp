// The goodput model's closed form (src/analysis/goodput.hpp) against a discrete-event simulation
// of exponential failures, checkpoints and restarts (goodput_simulation.hpp): over a grid of
// checkpoint time δ, restart time R and interval τ (the system MTTF M is the unit), synchronous
// and asynchronous, the simulated shares of the wall time agree with the model's within 1 %
// absolute. 200,000 failures per point, from a fixed seed.
#include <cmath>
#include <cstdint>

#include <catch2/catch.hpp>

#include "analysis/goodput.hpp"
#include "goodput_simulation.hpp"

namespace {

using namespace dlsize;

constexpr std::uint64_t kFailures = 200000;
constexpr double kTolerance = 0.01;

void check_against_simulation(double interval_s, const analysis::checkpoint_costs& c, double m,
                              std::uint64_t seed) {
  CAPTURE(interval_s, c.pause_s, c.drain_s, c.restart_s, m);
  const analysis::goodput_split model = analysis::goodput_at(interval_s, c, m);
  const test::simulated_job sim = test::simulate_job(interval_s, c, m, kFailures, seed);
  CAPTURE(model.useful, sim.share(sim.useful));
  CHECK(std::abs(sim.share(sim.useful) - model.useful) < kTolerance);
  CHECK(std::abs(sim.share(sim.checkpoints) - model.checkpoints) < kTolerance);
  CHECK(std::abs(sim.share(sim.rework()) - model.rework) < kTolerance);
  CHECK(std::abs(sim.share(sim.restarts) - model.restarts) < kTolerance);
}

} // namespace

TEST_CASE("Simulated synchronous checkpointing agrees with the closed form within 1 %",
          "[goodput][simulation]") {
  const double m = 1000;
  std::uint64_t seed = 20061;
  for (const double delta : {1.0, 10.0, 100.0})
    for (const double restart : {30.0, 300.0}) {
      const double daly = *analysis::daly_interval(delta, m);
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
      const double interval = *analysis::daly_interval(pause, m) * 2;
      check_against_simulation(interval, {pause, interval * drain_share, 100}, m, ++seed);
    }
  // The estimate's own interval, raised to a drain longer than Daly's.
  const analysis::checkpoint_costs drained{1, 120, 60};
  const analysis::goodput_estimate e = analysis::estimate_goodput(drained, m);
  REQUIRE(e.drain_bound);
  check_against_simulation(*e.interval_s, drained, m, 7);
}
