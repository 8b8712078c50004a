#include <unistd.h>

#include <chrono>
#include <stdexcept>
#include <thread>

#include <catch2/catch.hpp>

#include "core/clock.hpp"
#include "io/watched_workers.hpp"

using Catch::Matchers::Contains;
using dlsize::io::run_watched;
using dlsize::io::worker_context;

TEST_CASE("watched workers stop on a stall, naming the call, and leave a hung worker behind",
          "[watched_workers]") {
  int p[2];
  REQUIRE(pipe(p) == 0);
  // Worker 0 reads a pipe nobody writes (a hung mount's read); worker 1 has nothing to do.
  const auto body = [&](worker_context& w) {
    if (w.id() != 0)
      return;
    char c;
    w.blocking("a read of the pipe", [&] { return read(p[0], &c, 1); });
  };
  const double t0 = dlsize::now_s();
  const auto res = run_watched(2, body, 1.0, "reader", {});
  const double took = dlsize::now_s() - t0;
  CHECK(took < 4.0); // the timeout, a second of grace, and the watch's 100 ms ticks
  CHECK_THAT(res.stalled, Contains("reader 0 has waited") && Contains("a read of the pipe"));
  REQUIRE(res.abandoned.size() == 1);
  CHECK(res.abandoned[0] == "reader 0: a read of the pipe");
  CHECK_FALSE(res.interrupted);
  CHECK(res.first_error().empty());
  // Released, the abandoned worker finds itself abandoned and leaves without a trace.
  CHECK(write(p[1], "x", 1) == 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  close(p[0]);
  close(p[1]);
}

TEST_CASE("a watched worker's failure stops the others and is reported", "[watched_workers]") {
  const auto body = [](worker_context& w) {
    if (w.id() == 0)
      throw std::runtime_error("boom");
    while (!w.halted())
      w.blocking("a nap", [] { return usleep(10'000); });
  };
  const auto res = run_watched(3, body, 0, "writer", {});
  CHECK(res.first_error() == "boom");
  CHECK(res.stalled.empty());
  CHECK(res.abandoned.empty());
}

TEST_CASE("watched workers whose calls keep finishing are not stalled", "[watched_workers]") {
  int ticks = 0;
  const auto body = [](worker_context& w) {
    const double end = dlsize::now_s() + 1.5;
    while (!w.halted() && dlsize::now_s() < end)
      w.blocking("a short call", [] { return usleep(50'000); });
  };
  const auto res = run_watched(2, body, 1.0, "writer", [&] { ++ticks; });
  CHECK(res.stalled.empty());
  CHECK(res.first_error().empty());
  CHECK(ticks >= 5);
}

TEST_CASE("a call the halt ends is not its worker's failure: the first failure is reported",
          "[watched_workers]") {
  // Worker 1 waits in a call that watches the halt flag (an S3 request's stop) and throws once it
  // is set; worker 2 fails. The report names worker 2's failure, not worker 1's ended call.
  const auto body = [](worker_context& w) {
    if (w.id() == 2) {
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      throw std::runtime_error("the real failure");
    }
    w.blocking("a request", [&] {
      while (!w.halt_flag().load())
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
      throw std::runtime_error("stopped: the command is ending");
      return 0;
    });
  };
  const auto res = run_watched(3, body, 0, "reader", {});
  CHECK(res.first_error() == "the real failure");
  CHECK(res.errors[0].empty());
  CHECK(res.errors[1].empty());
  CHECK(res.abandoned.empty());
}
