#include <sys/stat.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "core/clock.hpp"
#include "core/input_watch.hpp"
#include "core/json_input.hpp"
#include "test_support.hpp"

using Catch::Matchers::Contains;
using namespace dlsize::core;
using namespace dlsize::test;

namespace {

// Restores the default watch (no limits) when a test ends.
struct watch_scope {
  explicit watch_scope(const dlsize::core::input_limits& l) { watch_inputs(l); }
  ~watch_scope() { watch_inputs({}); }
};

// A pipe with no writer: its read waits (up to the pipe's idle limit), as one of a hung mount.
struct silent_pipe {
  temp_dir dir;
  std::filesystem::path path = dir.path / "silent.json";
  silent_pipe() { REQUIRE(::mkfifo(path.c_str(), 0600) == 0); }
};

const dlsize::core::json_limits kPatient{"config", 1000, 64, std::chrono::seconds(4)};

} // namespace

TEST_CASE("a pre-run read with no progress for the stall timeout ends, naming the file",
          "[input_watch]") {
  silent_pipe p;
  watch_scope w({1, 0});
  const double t0 = dlsize::now_s();
  std::string msg;
  auto cause = dlsize::stop_cause::none;
  try {
    (void)dlsize::core::read_input_file(p.path, kPatient);
  } catch (const input_stopped& e) {
    msg = e.what();
    cause = e.cause();
  }
  const double took = dlsize::now_s() - t0;
  CHECK(cause == dlsize::stop_cause::stall);
  CHECK_THAT(msg,
             Contains("reading '" + p.path.string() + "': no progress for 1 s (--stall-timeout)"));
  CHECK_THAT(msg, Contains("stuck in the kernel"));
  CHECK(took >= 0.9);
  CHECK(took < 2.0);
}

TEST_CASE("the time limit ends a pre-run read that has not finished", "[input_watch]") {
  silent_pipe p;
  watch_scope w({0, 1});
  const double t0 = dlsize::now_s();
  std::string msg;
  try {
    (void)dlsize::core::read_input_file(p.path, kPatient);
  } catch (const input_stopped& e) {
    msg = e.what();
  }
  CHECK_THAT(msg, Contains("--time-limit 1 s reached before it was read"));
  CHECK(dlsize::now_s() - t0 < 2.0);
}

TEST_CASE("a watched read that keeps making progress is not a stall", "[input_watch]") {
  watch_scope w({1, 0});
  const std::string text = watched_read("slow.json", [](input_progress& progress) {
    for (int i = 0; i < 6; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(300));
      progress.store(dlsize::now_ns());
    }
    return std::string("done");
  });
  CHECK(text == "done");
}

TEST_CASE("a watched read returns what the read gives and passes on its errors", "[input_watch]") {
  CHECK(watched_read("a.json", [](input_progress&) { return std::string("{}"); }) == "{}");
  CHECK_THAT(usage_error_message([] {
               (void)watched_read("b.json", [](input_progress&) -> std::string {
                 throw dlsize::usage_error("cannot read 'b.json'");
               });
             }),
             Contains("cannot read 'b.json'"));
}

TEST_CASE("a watched call of any result is held to the same watch, and names its action",
          "[input_watch]") {
  watch_scope w({1, 0});
  // A body the kernel would hold (here: a wait that never ends on its own).
  auto gate = std::make_shared<std::atomic<bool>>(false);
  std::string msg;
  const double t0 = dlsize::now_s();
  try {
    (void)dlsize::core::watched_call("hung/dlsize-dataset.json", dlsize::core::kLookup, [gate] {
      while (!gate->load())
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      return 1;
    });
  } catch (const input_stopped& e) {
    msg = e.what();
  }
  gate->store(true); // the abandoned helper ends, touching only what it owns
  CHECK_THAT(msg, Contains("looking up 'hung/dlsize-dataset.json': no progress for 1 s "
                           "(--stall-timeout); stuck in the kernel: a lookup of it"));
  CHECK(dlsize::now_s() - t0 < 2.0);
}

TEST_CASE("a long watched call that notes its progress is not a stall; its result comes back",
          "[input_watch]") {
  watch_scope w({1, 0});
  const auto lines = dlsize::core::watched_call("index.json", {}, [] {
    std::vector<int> got;
    for (int i = 0; i < 15; ++i) { // 1.5 s in all, 0.1 s between marks
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
      dlsize::core::note_input_progress();
      got.push_back(i);
    }
    return got;
  });
  CHECK(lines.size() == 15);
  dlsize::core::note_input_progress(); // on a thread with no watched call: nothing happens
}

TEST_CASE("watched_stat gives stat's answer and errno", "[input_watch]") {
  temp_dir d;
  int err = 0;
  const auto st = dlsize::core::watched_stat(d.path, &err);
  REQUIRE(st);
  CHECK(S_ISDIR(st->st_mode));
  CHECK(err == 0);
  CHECK_FALSE(dlsize::core::watched_stat(d.path / "missing", &err));
  CHECK(err == ENOENT);
  CHECK_FALSE(dlsize::core::watched_exists(d.path / "missing"));
}
