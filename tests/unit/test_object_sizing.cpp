// Unit tests for size of S3 runs (analysis/object_sizing.hpp): the targets' GET rate and GETs
// in flight from the runs' bytes per GET, first byte and connection rate, and which limit binds,
// judged only on two or more storage-limited runs.
#include <catch2/catch.hpp>

#include "analysis/object_sizing.hpp"

using namespace dlsize::analysis;

namespace object_sizing_test {

// A run of 114,660 B GETs at `rate` GET/s whose first byte takes `first_byte` of `latency` s.
object_run run(double rate, double first_byte, double latency, bool limited) {
  return {"r.json", 4, rate, 1, 114660, first_byte, latency, limited};
}

} // namespace object_sizing_test

using object_sizing_test::run;

TEST_CASE("a target's bandwidth becomes GET/s at the measured bytes per GET, Little's law") {
  const object_sizing s =
      size_objects({run(900, 0.006, 0.010, true), run(1000, 0.006, 0.010, true)}, 0, {{16, 640e6}});
  CHECK(s.bytes_per_request == 114660);
  CHECK(s.connection_bytes_per_s == Approx(114660 / 0.004));
  CHECK(s.best_requests_per_s == 1000);
  REQUIRE(s.targets.size() == 1);
  CHECK(s.targets[0].requests_per_s == Approx(640e6 / 114660));
  // 5,581.7 GET/s × (6 ms + 4 ms): 55.8 in flight.
  CHECK(s.targets[0].requests_in_flight == Approx(640e6 / 114660 * 0.010));
  CHECK(s.limit == "requests"); // the first byte is 60 % of a GET's time
}

TEST_CASE("storage-limited runs whose GETs are mostly transfer are bandwidth-bound") {
  const object_sizing s = size_objects(
      {run(20, 0.01, 0.1, true), run(21, 0.01, 0.1, true), run(10, 0.01, 0.1, false)}, 0, {});
  CHECK(s.limit == "bandwidth");
  CHECK(s.limit_reason.find("10 %") != std::string::npos);
}

TEST_CASE("thin evidence is not judged: one run, one storage-limited run, none, no figures") {
  CHECK(size_objects({run(900, 0.006, 0.010, true)}, 0, {}).limit_reason.find("1 run with") == 0);
  const auto one_limited =
      size_objects({run(900, 0.006, 0.010, true), run(500, 0.006, 0.010, false)}, 0, {});
  CHECK(one_limited.limit == "not judged");
  CHECK(one_limited.limit_reason.find("one run (r.json)") == 0);
  const auto none_limited =
      size_objects({run(900, 0.006, 0.010, false), run(500, 0.006, 0.010, false)}, 0, {});
  CHECK(none_limited.limit == "not judged");
  CHECK(none_limited.limit_reason.find("900 GET/s") != std::string::npos);
  const auto no_figures = size_objects({}, 3, {{16, 1e9}});
  CHECK(no_figures.limit == "not judged");
  CHECK(no_figures.targets.empty());
  CHECK(no_figures.runs_without_figures == 3);
}
