// Unit tests for src/core/figures.hpp: each formula of docs/metrics.md gives the figure the
// metrics define, and the same double as the expression it replaced.
#include <algorithm>
#include <cmath>

#include <catch2/catch.hpp>

#include "core/figures.hpp"

using namespace dlsize::core;

TEST_CASE("AU is compute over the window, capped at 1", "[figures]") {
  CHECK(accelerator_utilization(9, 10) == 0.9);
  CHECK(accelerator_utilization(12, 10) == 1.0);
  CHECK(accelerator_utilization(0, 10) == 0.0);
  // The epoch and the timeseries pass accelerators × wall as the window.
  CHECK(accelerator_utilization(6, 4 * 2.0) == 0.75);
}

TEST_CASE("storage AU counts the allreduce's exposed time as the accelerator's own", "[figures]") {
  CHECK(storage_au(6, 2, 10) == 0.8);
  CHECK(storage_au(6, 0, 10) == accelerator_utilization(6, 10));
  CHECK(storage_au(9, 3, 10) == 1.0);
}

TEST_CASE("the formulas give the same double as the expressions they replaced", "[figures]") {
  // Values whose rounding depends on the order of the operations.
  const double compute = 0.1 + 0.2, comm = 1.0 / 3.0, window = 0.7;
  CHECK(accelerator_utilization(compute, window) == std::min(1.0, compute / window));
  CHECK(storage_au(compute, comm, window) == std::min(1.0, (compute + comm) / window));
  const double batch = 7, bytes = 114660.3, step = 0.123;
  CHECK(batch_demand_bytes_per_s(batch, bytes, step) == batch * bytes / step);
  CHECK(demand_bytes_per_s(batch / step, bytes) == batch / step * bytes);
  CHECK(required_bandwidth(1e9 / 3, 0.37) == 1e9 / 3 / 0.37);
  CHECK(bandwidth_at_threshold(1e9 / 3, 0.9) == 1e9 / 3 * 0.9);
}

TEST_CASE("demand is the bytes the accelerators read at AU 1", "[figures]") {
  CHECK(demand_bytes_per_s(100, 1000) == 100000);
  CHECK(batch_demand_bytes_per_s(4, 1000, 0.5) == 8000);
  CHECK(batch_demand_bytes_per_s(4, 1000, 0) == 0);
  CHECK(batch_demand_bytes_per_s(4, 1000, -1) == 0);
}

TEST_CASE("a run's requirement is its bandwidth over its AU; plan's is demand × threshold",
          "[figures]") {
  CHECK(required_bandwidth(450, 0.5) == 900);
  CHECK(bandwidth_at_threshold(1000, 0.9) == 900);
}

TEST_CASE("the AU a bandwidth allows is capped at 1, a plain share is not", "[figures]") {
  CHECK(au_at_bandwidth(500, 1000) == 0.5);
  CHECK(au_at_bandwidth(2000, 1000) == 1.0);
  CHECK(share(2000, 1000) == 2.0);
  CHECK(capped_share(2000, 1000) == 1.0);
}
