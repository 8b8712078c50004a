// Unit tests for src/pipeline/batch_board.hpp: the per-accelerator prefetch queues.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <future>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>

#include "pipeline/batch_board.hpp"

namespace {

using dlsize::pipeline::batch_board;
using namespace std::chrono_literals;

// Closes the board when a test leaves, even by a failed REQUIRE, so that a waiter still
// blocked in wait() returns and the future's destructor cannot hang the run. Declare it after
// the future: it is destroyed first.
struct close_on_exit {
  batch_board& board;
  ~close_on_exit() { board.close(); }
};

// Waits for accelerator a's step t in another thread: the wait must still block after
// `blocked`, and return once `release` (the batch's last sample, or close) has run. Returns what
// the wait got; the board is closed when it returns.
template <class Release>
batch_board::batch wait_released_by(batch_board& board, std::uint64_t a, std::uint64_t t,
                                    std::chrono::milliseconds blocked, Release release) {
  auto waiter = std::async(std::launch::async, [&] { return board.wait(a, t); });
  const close_on_exit guard{board};
  CHECK(waiter.wait_for(blocked) == std::future_status::timeout);
  release();
  REQUIRE(waiter.wait_for(10s) == std::future_status::ready);
  return waiter.get();
}

// b is ready, of these bytes and failed samples, at the time of its last sample.
void check_ready(const batch_board::batch& b, std::uint64_t bytes, std::uint64_t failed,
                 std::uint64_t ready_ns) {
  CHECK(b.ready);
  CHECK(b.bytes == bytes);
  CHECK(b.failed == failed);
  CHECK(b.ready_ns == ready_ns);
}

} // namespace

TEST_CASE("batch_board may_load allows only steps below taken + depth", "[batch_board]") {
  batch_board board(2, 3, 4);
  CHECK(board.depth() == 3);
  for (std::uint64_t t = 0; t < 3; ++t)
    CHECK(board.may_load(0, t));
  CHECK_FALSE(board.may_load(0, 3));
  CHECK_FALSE(board.may_load(0, 10));
  // Taking step 0 moves accelerator 0's window by one; accelerator 1's stays.
  for (std::uint64_t p = 0; p < 4; ++p)
    board.sample_done(0, 0, 1, false, 0);
  REQUIRE(board.wait(0, 0).ready);
  board.take(0, 0);
  CHECK(board.may_load(0, 3));
  CHECK_FALSE(board.may_load(0, 4));
  CHECK_FALSE(board.may_load(1, 3));
  CHECK(board.may_load(1, 2));
}

TEST_CASE("batch_board marks a batch ready only when all its samples are done", "[batch_board]") {
  batch_board board(1, 2, 4);
  board.sample_done(0, 0, 100, false, 10);
  board.sample_done(0, 0, 200, true, 20);
  board.sample_done(0, 0, 300, false, 30);
  // Three of four samples: the batch is not ready, so a waiter only returns on close.
  const auto b =
      wait_released_by(board, 0, 0, 300ms, [&] { board.sample_done(0, 0, 400, true, 40); });
  check_ready(b, 1000, 2, 40);
}

TEST_CASE("batch_board keeps batches of different slots and accelerators apart", "[batch_board]") {
  batch_board board(2, 2, 2);
  // Samples may finish in any order across steps in the window.
  board.sample_done(0, 1, 5, false, 1);
  board.sample_done(1, 0, 7, false, 2);
  board.sample_done(0, 0, 1, false, 3);
  board.sample_done(0, 1, 5, false, 4);
  board.sample_done(1, 0, 7, false, 5);
  board.sample_done(0, 0, 2, false, 6);
  const auto s0 = board.wait(0, 0);
  const auto s1 = board.wait(0, 1);
  const auto a1 = board.wait(1, 0);
  CHECK(s0.ready);
  CHECK(s0.bytes == 3);
  CHECK(s1.ready);
  CHECK(s1.bytes == 10);
  CHECK(a1.ready);
  CHECK(a1.bytes == 14);
}

TEST_CASE("batch_board wait returns not ready once the board is closed", "[batch_board]") {
  batch_board board(1, 2, 4);
  board.sample_done(0, 0, 100, false, 0);
  CHECK_FALSE(wait_released_by(board, 0, 0, 200ms, [&] { board.close(); }).ready);
  // After close, a wait for a step never filled returns at once.
  CHECK_FALSE(board.wait(0, 1).ready);
}

TEST_CASE("batch_board take resets the slot so step t + depth accumulates from zero",
          "[batch_board]") {
  batch_board board(1, 2, 3);
  for (int i = 0; i < 3; ++i)
    board.sample_done(0, 0, 1000, true, 1);
  const auto first = board.wait(0, 0);
  REQUIRE(first.ready);
  CHECK(first.bytes == 3000);
  CHECK(first.failed == 3);
  board.take(0, 0);
  // Step 2 shares slot 0: it is not ready until its own three samples are done.
  REQUIRE(board.may_load(0, 2));
  board.sample_done(0, 2, 1, false, 5);
  board.sample_done(0, 2, 2, false, 6);
  const auto b =
      wait_released_by(board, 0, 2, 200ms, [&] { board.sample_done(0, 2, 3, false, 7); });
  check_ready(b, 6, 0, 7);
}

TEST_CASE("batch_board hands a consumer every step with its bytes while a producer runs ahead",
          "[batch_board]") {
  constexpr std::uint64_t kSteps = 2000, kDepth = 3, kBatch = 5;
  batch_board board(1, kDepth, kBatch);
  std::atomic<bool> stop{false};
  // Sample p of step t reads t * 100 + p bytes, so each step has its own sum.
  auto expected = [](std::uint64_t t) { return t * 100 * kBatch + kBatch * (kBatch - 1) / 2; };
  auto run = [&] {
    std::thread producer([&] {
      for (std::uint64_t t = 0; t < kSteps; ++t) {
        while (!board.may_load(0, t)) {
          if (stop.load())
            return;
          std::this_thread::yield();
        }
        for (std::uint64_t p = 0; p < kBatch; ++p)
          board.sample_done(0, t, t * 100 + p, false, t);
      }
    });
    std::vector<std::uint64_t> wrong;
    std::uint64_t received = 0;
    for (std::uint64_t t = 0; t < kSteps; ++t) {
      const auto b = board.wait(0, t);
      if (!b.ready)
        break;
      if (b.bytes != expected(t) || b.failed != 0)
        wrong.push_back(t);
      ++received;
      board.take(0, t);
    }
    producer.join();
    return std::make_pair(received, wrong);
  };
  auto result = std::async(std::launch::async, run);
  if (result.wait_for(10s) != std::future_status::ready) {
    // Stop both sides so the test fails instead of hanging.
    stop.store(true);
    board.close();
    FAIL("producer and consumer did not finish within 10 s");
  }
  const auto [received, wrong] = result.get();
  CHECK(received == kSteps);
  CHECK(wrong.empty());
}
