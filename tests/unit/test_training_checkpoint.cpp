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
