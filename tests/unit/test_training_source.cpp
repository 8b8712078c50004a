// Unit tests for src/pipeline/training_source.hpp: which sample the readers get next.
#include <cstdint>
#include <map>
#include <set>
#include <utility>

#include <catch2/catch.hpp>

#include "dataset/layout.hpp"
#include "io/engine.hpp"
#include "pipeline/batch_board.hpp"
#include "pipeline/sampler.hpp"
#include "pipeline/training_source.hpp"

namespace {

using namespace dlsize;
using pipeline::batch_board;
using pipeline::sampler;
using pipeline::training_source;

dataset::dataset_layout shards(std::uint64_t files, std::uint64_t per_file) {
  dataset::dataset_params p;
  p.workload = "unit";
  p.layout = config::file_layout::shards;
  p.format = "tfrecord";
  p.records_per_file = per_file;
  p.files = files;
  p.sample_bytes_mean = 1000;
  p.seed = 3;
  return {"unused", p};
}

// Pulls until the source says later or end; returns (accelerator, step) of each job.
std::vector<std::pair<std::uint64_t, std::uint64_t>> drain(training_source& src, const sampler& s,
                                                           io::pull_result& last) {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> got;
  io::read_job job;
  while ((last = src.pull(0, job)) == io::pull_result::job) {
    const auto sl = s.slot(job.tag);
    got.emplace_back(sl.accelerator, sl.step);
  }
  return got;
}

} // namespace

TEST_CASE("training source stops at a full prefetch window and resumes when the batch is taken",
          "[training_source]") {
  const auto layout = shards(4, 100); // 400 samples
  const sampler s(400, 2, 10, 1, 7);  // 20 steps per accelerator
  batch_board board(2, 2, 10);
  training_source src(layout, s, board, 0, s.accelerators(), 1);
  io::pull_result last{};
  auto got = drain(src, s, last);
  CHECK(last == io::pull_result::later);
  CHECK(got.size() == 2 * 2 * 10); // two batches ahead for each accelerator
  for (const auto& [a, t] : got)
    CHECK(t < 2);
  board.take(0, 0);
  got = drain(src, s, last);
  REQUIRE(got.size() == 10);
  for (const auto& [a, t] : got) {
    CHECK(a == 0);
    CHECK(t == 2);
  }
}

TEST_CASE("a straggler's full window does not hold back another accelerator's reads",
          "[training_source]") {
  const auto layout = shards(4, 100);
  const sampler s(400, 2, 10, 1, 7);
  batch_board board(2, 1, 10);
  training_source src(layout, s, board, 0, s.accelerators(), 1);
  io::pull_result last{};
  drain(src, s, last); // step 0 of both
  // Accelerator 1 runs ahead three steps while accelerator 0 has not taken its first batch.
  for (std::uint64_t t = 0; t < 3; ++t) {
    board.take(1, t);
    const auto got = drain(src, s, last);
    REQUIRE(got.size() == 10);
    for (const auto& [a, step] : got) {
      CHECK(a == 1);
      CHECK(step == t + 1);
    }
    CHECK(last == io::pull_result::later);
  }
}

TEST_CASE("training source finishes a batch before starting another and hands out every job once",
          "[training_source]") {
  const auto layout = shards(3, 100); // 300 samples
  const sampler s(300, 3, 7, 2, 11);  // 14 steps per epoch, 2 epochs
  batch_board board(3, 3, 7);
  training_source src(layout, s, board, 0, s.accelerators(), 1);
  std::set<std::uint64_t> tags;
  std::map<std::uint64_t, std::uint64_t> taken; // accelerator -> steps taken
  io::read_job job;
  std::uint64_t prev_batch = UINT64_MAX, in_batch = 0;
  for (;;) {
    const auto r = src.pull(0, job);
    if (r == io::pull_result::end)
      break;
    if (r == io::pull_result::later) {
      for (std::uint64_t a = 0; a < 3; ++a)
        board.take(a, taken[a]++);
      continue;
    }
    CHECK(tags.insert(job.tag).second);
    const std::uint64_t batch = job.tag / 7;
    if (batch != prev_batch) {
      CHECK((prev_batch == UINT64_MAX || in_batch == 7)); // the previous batch was complete
      prev_batch = batch;
      in_batch = 0;
    }
    ++in_batch;
  }
  CHECK(tags.size() == s.total_jobs());
}

TEST_CASE("a closed training source answers end", "[training_source]") {
  const auto layout = shards(1, 100);
  const sampler s(100, 1, 10, 1, 1);
  batch_board board(1, 2, 10);
  training_source src(layout, s, board, 0, s.accelerators(), 1);
  src.close();
  io::read_job job;
  CHECK(src.pull(0, job) == io::pull_result::end);
}

TEST_CASE(
    "the sources of ranks that split the accelerators hand out exactly the jobs of one source",
    "[training_source]") {
  const auto layout = shards(4, 100);
  const sampler s(400, 4, 5, 2, 9); // 4 accelerators: one rank of 4, or two ranks of 2
  auto all_jobs = [&](std::uint64_t first, std::uint64_t count) {
    batch_board board(count, 1000, 5); // a window past the run: nothing waits
    training_source src(layout, s, board, first, count, 1);
    std::set<std::pair<std::uint64_t, std::uint64_t>> jobs; // (tag, file offset)
    io::read_job job;
    while (src.pull(0, job) == io::pull_result::job) {
      CHECK(s.slot(job.tag).accelerator >= first);
      CHECK(s.slot(job.tag).accelerator < first + count);
      jobs.emplace(job.tag, job.offset);
    }
    return jobs;
  };
  const auto one = all_jobs(0, 4);
  auto two = all_jobs(0, 2);
  const auto second = all_jobs(2, 2);
  CHECK(two.size() + second.size() == one.size());
  two.insert(second.begin(), second.end());
  CHECK(two == one);
  CHECK(one.size() == s.total_jobs());
}
