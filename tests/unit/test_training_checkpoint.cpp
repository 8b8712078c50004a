// Unit tests for src/pipeline/training_checkpoint.hpp: the steps between checkpoints and the
// split of accelerator time between AU, checkpoints and the rest.
#include <catch2/catch.hpp>

#include "pipeline/training_checkpoint.hpp"

using namespace dlsize;

TEST_CASE("A checkpoint interval in steps is kept as given", "[training_checkpoint]") {
  config::checkpoint_interval every;
  every.steps = 20;
  CHECK(pipeline::checkpoint_every_steps(every, 0.5) == 20);
}

TEST_CASE("A checkpoint interval in time becomes the steps computed in it, at least one",
          "[training_checkpoint]") {
  config::checkpoint_interval every;
  every.seconds = 1800;
  CHECK(pipeline::checkpoint_every_steps(every, 0.5) == 3600);
  CHECK(pipeline::checkpoint_every_steps(every, 0.7) == 2572); // rounded up: 2571.4
  every.seconds = 0.001;
  CHECK(pipeline::checkpoint_every_steps(every, 0.5) == 1);
}

TEST_CASE("AU, the share lost to checkpoints and the rest add up to one", "[training_checkpoint]") {
  const auto s = pipeline::split_checkpoint_au(0.8, 1.0, 10.0);
  CHECK(s.lost_to_checkpoints == Approx(0.1));
  CHECK(s.lost_other == Approx(0.1));
  CHECK(0.8 + s.lost_to_checkpoints + s.lost_other == Approx(1.0));
  CHECK(s.excluding_checkpoints == Approx(0.8 / 0.9));
}

TEST_CASE("The AU split stays within its bounds for odd inputs", "[training_checkpoint]") {
  const auto none = pipeline::split_checkpoint_au(0.5, 1.0, 0.0);
  CHECK(none.lost_to_checkpoints == 0);
  CHECK(none.excluding_checkpoints == 0);
  const auto all = pipeline::split_checkpoint_au(1.0, 2.0, 1.0);
  CHECK(all.lost_to_checkpoints == 1);
  CHECK(all.lost_other == 0);
  CHECK(all.excluding_checkpoints == 0);
}

TEST_CASE("The optimal interval is Daly's for the first pause, in whole steps",
          "[training_checkpoint][goodput]") {
  // Daly (2006), Fig. 3: M = 24 h and δ = 5 min give τ = 116.69 min (python3: 7001.389 s); here
  // 4 accelerators of 96 h each, steps of 60 s: ceil(7001.389 / 60) = 117 steps.
  const pipeline::optimal_interval o{96 * 3600.0, "--mttf 96h", 4};
  const auto c = pipeline::choose_interval(o, 300, 60);
  CHECK(*c.system_mttf_s == 86400);
  CHECK(*c.keeps_up);
  CHECK(*c.daly_s == Approx(7001.388888888889).epsilon(1e-9));
  CHECK(*c.interval_s == *c.daly_s);
  CHECK(*c.young_s == Approx(7200));
  CHECK(*c.every_steps == 117);
  CHECK(c.reason->find("Daly's optimum") == 0);
}

TEST_CASE("Checkpoints that cannot keep up are taken every system MTTF", "[training_checkpoint]") {
  // A 10 s pause against a system MTTF of 4 s (20 s / 5): δ ≥ 2M, so τ = M = 4 s, 8 steps.
  const pipeline::optimal_interval o{20, "--mttf 20s", 5};
  const auto c = pipeline::choose_interval(o, 10, 0.5);
  CHECK_FALSE(*c.keeps_up);
  CHECK_FALSE(c.daly_s.has_value());
  CHECK(c.daly_s.present);
  CHECK(*c.interval_s == 4);
  CHECK(*c.every_steps == 8);
  CHECK(c.reason->find("checkpoints cannot keep up") == 0);
}
