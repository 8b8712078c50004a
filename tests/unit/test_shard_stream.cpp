// Unit tests for the streamed-shards mode of src/pipeline/sampler.hpp (shard_stream.hpp): which
// shards each accelerator streams in an epoch, in which order, and how many steps it runs.
#include <algorithm>
#include <cstdint>
#include <set>
#include <vector>

#include <catch2/catch.hpp>

#include "test_support.hpp"

#include "pipeline/epoch_order.hpp"
#include "pipeline/sampler.hpp"

namespace {

using Catch::Matchers::Contains;
using dlsize::pipeline::epoch_permutation;
using dlsize::pipeline::sampler;
using dlsize::test::usage_error_message;

// Shards of unequal record counts, as an index of TFRecord files gives.
const std::vector<std::uint64_t> kCounts = {7, 3, 9, 5, 6, 4, 8, 2, 10, 5, 6, 7, 3};

std::vector<std::uint64_t> prefix(const std::vector<std::uint64_t>& counts) {
  std::vector<std::uint64_t> first{0};
  for (auto c : counts)
    first.push_back(first.back() + c);
  return first;
}

// Accelerator a's records in an epoch, in the order its batches take them.
std::vector<std::uint64_t> stream_of(const sampler& s, std::uint64_t epoch, std::uint64_t a) {
  std::vector<std::uint64_t> out;
  sampler::epoch_hold hold;
  for (std::uint64_t t = s.first_step(epoch); t < s.first_step(epoch + 1); ++t)
    for (std::uint64_t p = 0; p < s.batch_size(); ++p)
      out.push_back(s.sample(s.first_job(t, a) + p, hold));
  return out;
}

} // namespace

TEST_CASE("streamed shards: each accelerator reads its dealt shards whole and in file order, "
          "each record once per epoch",
          "[sampler][shard_stream]") {
  const auto first = prefix(kCounts);
  const std::uint64_t shards = kCounts.size(), accels = 3, batch = 2, seed = 17;
  const sampler s(first, accels, batch, 4, seed);
  REQUIRE(s.streamed());
  for (std::uint64_t e = 0; e < 4; ++e) {
    const auto perm = epoch_permutation(shards, seed, e);
    std::set<std::uint64_t> seen;
    for (std::uint64_t a = 0; a < accels; ++a) {
      // The shards of permuted positions a, a + A, ..., concatenated, cut to whole batches.
      std::vector<std::uint64_t> expected;
      for (std::uint64_t i = a; i < shards; i += accels)
        for (std::uint64_t r = first[perm[i]]; r < first[perm[i] + 1]; ++r)
          expected.push_back(r);
      const auto got = stream_of(s, e, a);
      REQUIRE(got.size() <= expected.size());
      CHECK(std::equal(got.begin(), got.end(), expected.begin()));
      for (auto r : got)
        CHECK(seen.insert(r).second);
    }
  }
}

TEST_CASE("streamed shards: every accelerator runs the fewest whole batches of any, per epoch",
          "[sampler][shard_stream]") {
  const auto first = prefix(kCounts);
  const std::uint64_t shards = kCounts.size(), accels = 4, batch = 3, epochs = 5, seed = 2;
  const sampler s(first, accels, batch, epochs, seed);
  std::uint64_t total = 0;
  std::set<std::uint64_t> per_epoch;
  for (std::uint64_t e = 0; e < epochs; ++e) {
    const auto perm = epoch_permutation(shards, seed, e);
    std::vector<std::uint64_t> records(accels);
    for (std::uint64_t i = 0; i < shards; ++i)
      records[i % accels] += kCounts[perm[i]];
    const std::uint64_t steps = *std::min_element(records.begin(), records.end()) / batch;
    CHECK(s.first_step(e + 1) - s.first_step(e) == steps);
    CHECK(s.epoch_of(s.first_step(e)) == e);
    CHECK(s.ends_epoch(s.first_step(e + 1) - 1));
    total += steps;
    per_epoch.insert(steps);
  }
  CHECK(s.total_steps() == total);
  CHECK(s.steps_per_epoch() == *per_epoch.begin());
  CHECK(s.epochs_done(s.first_step(2)) == 2);
  CHECK(s.epochs_done(s.total_steps()) == epochs);
  // Every job of the run lands on one accelerator, all of them the same number of times.
  std::vector<std::uint64_t> jobs(accels);
  for (std::uint64_t k = 0; k < s.total_jobs(); ++k)
    ++jobs[s.slot(k).accelerator];
  CHECK(std::all_of(jobs.begin(), jobs.end(), [&](auto n) { return n == total * batch; }));
}

TEST_CASE("streamed shards of equal size run the same steps every epoch",
          "[sampler][shard_stream]") {
  // 10 shards of 8 records over 3 accelerators: at least 3 shards (24 records) each.
  const sampler s(prefix(std::vector<std::uint64_t>(10, 8)), 3, 5, 3, 1);
  CHECK(s.steps_per_epoch() == 4);
  CHECK(s.total_steps() == 12);
  CHECK(s.dropped_per_epoch() == 80 - 4 * 3 * 5);
  CHECK(s.slot(s.first_job(4, 0)).epoch == 1);
}

TEST_CASE("streamed shards are dealt in a new order every epoch", "[sampler][shard_stream]") {
  const sampler s(prefix(kCounts), 2, 2, 3, 5);
  CHECK(stream_of(s, 0, 0) != stream_of(s, 1, 0));
  CHECK(stream_of(s, 1, 0) != stream_of(s, 2, 0));
}

TEST_CASE("streamed shards are the same for a seed and differ across seeds",
          "[sampler][shard_stream]") {
  const auto first = prefix(kCounts);
  const sampler a(first, 3, 2, 2, 42), b(first, 3, 2, 2, 42), c(first, 3, 2, 2, 43);
  std::vector<std::uint32_t> ja, jb, jc;
  for (std::uint64_t k = 0; k < a.total_jobs(); ++k) {
    ja.push_back(a.sample(k));
    jb.push_back(b.sample(k));
  }
  for (std::uint64_t k = 0; k < c.total_jobs(); ++k)
    jc.push_back(c.sample(k));
  CHECK(ja == jb);
  CHECK(ja != jc);
}

TEST_CASE("streamed shards refuse fewer shards than accelerators and epochs short of a batch",
          "[sampler][shard_stream]") {
  const auto few = usage_error_message([] { (void)sampler(prefix({50, 50}), 3, 2, 1, 1); });
  CHECK_THAT(few, Contains("--shard-read stream: 2 shards for 3 accelerators"));
  // Accelerator 1 gets one shard of 2 records, less than a batch of 4.
  const auto shorty = usage_error_message([] { (void)sampler(prefix({40, 2}), 2, 4, 1, 1); });
  CHECK_THAT(shorty, Contains("less than one batch of 4"));
  CHECK_THAT(shorty, Contains("--shard-read records"));
}
