// Unit tests for src/report/run_status.hpp: the words of a stop and of a status come from one
// place, and the one status decision ranks a failure, a stop, problems and missing ranks.
#include <string>

#include <catch2/catch.hpp>

#include "core/error.hpp"
#include "report/run_status.hpp"

using namespace dlsize;
using namespace dlsize::report;

TEST_CASE("a stop's cause reads as the report has always said it", "[status]") {
  CHECK(stop_reason_text({stop_cause::signal, 2, ""}) == "interrupted by signal 2");
  CHECK(stop_reason_text({stop_cause::time_limit, 0, ""}) == "time limit reached");
  CHECK(stop_reason_text({stop_cause::stall, 0, "no byte read for 61.0 s; file a stuck 61 s"}) ==
        "stalled: no byte read for 61.0 s; file a stuck 61 s");
  CHECK(stop_reason_text({}).empty());
  for (const stop_cause c :
       {stop_cause::none, stop_cause::signal, stop_cause::time_limit, stop_cause::stall})
    CHECK(stop_cause_from_string(to_string(c)) == c);
  CHECK_THROWS_AS(stop_cause_from_string("interrupted"), run_error);
  CHECK(to_string(run_status::incomplete) == "incomplete");
  CHECK(to_string(rank_status::missing) == "missing");
}

TEST_CASE("a run with nothing wrong is complete", "[status]") {
  status_inputs in;
  in.work_done = true;
  in.problems = {{0, "read errors", ""}};
  const auto d = decide_status(in);
  CHECK(d.status == run_status::complete);
  CHECK(d.reason.empty());
  CHECK_FALSE(d.stopped_at_time_limit);
}

TEST_CASE("a failure outranks a stop and problems", "[status]") {
  status_inputs in;
  in.failure = "rank 1 (b): accelerator 3 step 7: 2 samples could not be read";
  in.stop = {stop_cause::signal, 15, ""};
  in.problems = {{2, "samples could not be read", "read failed"}};
  const auto d = decide_status(in);
  CHECK(d.status == run_status::incomplete);
  CHECK(d.reason == in.failure);
}

TEST_CASE("a signal that cut the work short makes the run incomplete", "[status]") {
  status_inputs in;
  in.stop = {stop_cause::signal, 2, ""};
  auto d = decide_status(in);
  CHECK(d.status == run_status::incomplete);
  CHECK(d.reason == "interrupted by signal 2");
  in.stop_said = "rank 2 (c): interrupted by signal 2";
  CHECK(decide_status(in).reason == in.stop_said);
  in.work_done = true; // the stop came after the last read: it stopped nothing
  d = decide_status(in);
  CHECK(d.status == run_status::complete);
}

TEST_CASE("a stall that cut the work short is the reason, with what is stuck", "[status]") {
  status_inputs in;
  in.stop = {stop_cause::stall, 0, "no byte read and no step for 2.0 s; ds/f1 stuck 2.0 s"};
  in.problems = {{1, "read errors", "read failed"}};
  const auto d = decide_status(in);
  CHECK(d.status == run_status::incomplete);
  CHECK(d.reason == "stalled: no byte read and no step for 2.0 s; ds/f1 stuck 2.0 s");
  CHECK_FALSE(d.stopped_at_time_limit);
}

TEST_CASE("the time limit is a planned end: complete, and said so", "[status]") {
  status_inputs in;
  in.stop = {stop_cause::time_limit, 0, ""};
  auto d = decide_status(in);
  CHECK(d.status == run_status::complete);
  CHECK(d.stopped_at_time_limit);
  in.work_done = true;
  CHECK_FALSE(decide_status(in).stopped_at_time_limit);
}

TEST_CASE("the first problem that counted is the reason, with its first instance", "[status]") {
  status_inputs in;
  in.work_done = true;
  in.problems = {{0, "read errors", ""}, {3, "records failed verification", "record 9: crc"}};
  const auto d = decide_status(in);
  CHECK(d.status == run_status::incomplete);
  CHECK(d.reason == "3 records failed verification; first: record 9: crc");
}

TEST_CASE("missing ranks are named after any other reason", "[status]") {
  status_inputs in;
  in.work_done = false;
  in.missing_ranks = {"rank 1 (b)", "rank 3 (d)"};
  auto d = decide_status(in);
  CHECK(d.status == run_status::incomplete);
  CHECK(d.reason == "no results from rank 1 (b), rank 3 (d)");
  in.failure = "rank 0 (a): boom";
  CHECK(decide_status(in).reason == "rank 0 (a): boom; no results from rank 1 (b), rank 3 (d)");
}
