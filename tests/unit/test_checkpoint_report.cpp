// Unit tests for src/pipeline/checkpoint_report.hpp: a run's duration is the slowest rank's,
// its throughput the slowest rank's rate, and the total is bytes over time, not a mean of rates.
#include <catch2/catch.hpp>

#include "pipeline/checkpoint_report.hpp"

namespace {

using namespace dlsize::pipeline;

rank_phase part(std::uint64_t bytes, double seconds) {
  rank_phase p;
  p.bytes = bytes;
  p.seconds = seconds;
  p.fill_s = seconds / 10;
  p.starved_s = seconds / 100;
  return p;
}

} // namespace

TEST_CASE("checkpoint figures take the slowest rank per run and total bytes over total time",
          "[checkpoint]") {
  // Run 1: ranks of 100 B in 1 s and 100 B in 4 s; run 2: 100 B in 2 s each; a rank that
  // writes nothing (ZeRO 0) does not count for the slowest rate.
  const std::vector<phase_run> runs = {{1, {part(100, 1), part(100, 4), part(0, 0)}},
                                       {2, {part(100, 2), part(100, 2), part(0, 0)}}};
  const auto j = phase_figures(runs, 2, true);
  CHECK(j.runs[0].duration_s == 4.0);
  CHECK(j.runs[0].throughput_bytes_per_s == 25.0);
  CHECK(j.runs[0].bytes_per_s == 50.0);
  CHECK(j.duration_s.mean == 3.0);
  CHECK(j.duration_s.max == 4.0);
  CHECK(j.throughput_bytes_per_s == Approx((25.0 + 50.0) / 2));
  CHECK(j.bytes == 400);
  CHECK(j.bytes_per_s == Approx(400.0 / 6));
  CHECK(j.per_rank[1].bytes == 200);
  CHECK(j.per_rank[1].bytes_per_s == Approx(200.0 / 6));
  REQUIRE(j.generation);
  CHECK(j.generation->fill_share == Approx(0.1));
  CHECK(j.generation->starved_share == Approx(0.01));
  CHECK_FALSE(j.verify);
}

TEST_CASE("read figures carry the verification counts and the first problems", "[checkpoint]") {
  rank_phase a = part(100, 1);
  a.blocks = 3;
  a.mismatches = 1;
  a.problems = {"f at offset 0: corrupted"};
  const auto j = phase_figures({{1, {a}}}, 1, false);
  REQUIRE(j.verify);
  CHECK(j.verify->blocks == 3);
  CHECK(j.verify->mismatches == 1);
  CHECK(j.verify->problems == std::vector<std::string>{"f at offset 0: corrupted"});
  CHECK_FALSE(j.generation);
}
