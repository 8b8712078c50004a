// Unit tests for src/pipeline/sampler.hpp: the distributed sampler's steps, shards and order.
#include <cstdint>
#include <set>
#include <vector>

#include <catch2/catch.hpp>

#include "test_support.hpp"

#include "pipeline/sampler.hpp"

namespace {

using Catch::Matchers::Contains;
using dlsize::pipeline::sampler;
using dlsize::test::usage_error_message;

// The samples of one epoch in job order (all steps, accelerators and positions).
std::vector<std::uint32_t> epoch_samples(const sampler& s, std::uint64_t epoch) {
  std::vector<std::uint32_t> out;
  const std::uint64_t per_epoch = s.steps_per_epoch() * s.accelerators() * s.batch_size();
  for (std::uint64_t k = epoch * per_epoch; k < (epoch + 1) * per_epoch; ++k)
    out.push_back(s.sample(k));
  return out;
}

} // namespace

TEST_CASE("sampler gives every accelerator the same number of steps", "[sampler]") {
  struct shape {
    std::uint64_t samples, accelerators, batch;
  };
  for (const shape c : {shape{100, 1, 10}, shape{100, 3, 10}, shape{1000, 4, 7}, shape{64, 8, 8},
                        shape{65, 8, 8}, shape{127, 8, 8}}) {
    INFO("samples " << c.samples << " accelerators " << c.accelerators << " batch " << c.batch);
    const sampler s(c.samples, c.accelerators, c.batch, 2, 1);
    const std::uint64_t expected = c.samples / (c.accelerators * c.batch);
    CHECK(s.steps_per_epoch() == expected);
    CHECK(s.total_steps() == 2 * expected);
    CHECK(s.total_jobs() == 2 * expected * c.accelerators * c.batch);
    // Count the batches each accelerator gets by decoding every job of the run.
    std::vector<std::uint64_t> jobs_of(c.accelerators, 0);
    for (std::uint64_t k = 0; k < s.total_jobs(); ++k)
      ++jobs_of[s.slot(k).accelerator];
    for (std::uint64_t a = 0; a < c.accelerators; ++a) {
      INFO("accelerator " << a);
      CHECK(jobs_of[a] == s.total_steps() * c.batch);
    }
  }
}

TEST_CASE("sampler reports the samples dropped per epoch as the tail short of a whole step",
          "[sampler]") {
  CHECK(sampler(100, 3, 10, 1, 1).dropped_per_epoch() == 10); // 3 steps of 30
  CHECK(sampler(1000, 4, 7, 1, 1).dropped_per_epoch() == 1000 - 35 * 28);
  CHECK(sampler(64, 8, 8, 1, 1).dropped_per_epoch() == 0);
  CHECK(sampler(127, 8, 8, 1, 1).dropped_per_epoch() == 63);
}

TEST_CASE("sampler never reads a sample twice within one epoch across all accelerators",
          "[sampler]") {
  const sampler s(1000, 4, 7, 3, 99);
  for (std::uint64_t epoch = 0; epoch < 3; ++epoch) {
    INFO("epoch " << epoch);
    const auto samples = epoch_samples(s, epoch);
    const std::set<std::uint32_t> distinct(samples.begin(), samples.end());
    CHECK(samples.size() == 35 * 28);
    CHECK(distinct.size() == samples.size());
    for (const std::uint32_t x : samples)
      CHECK(x < 1000);
  }
}

TEST_CASE("sampler gives each accelerator a shard disjoint from every other's in an epoch",
          "[sampler]") {
  const sampler s(500, 3, 5, 2, 7);
  for (std::uint64_t epoch = 0; epoch < 2; ++epoch) {
    std::vector<std::set<std::uint32_t>> shard(3);
    std::uint64_t jobs = 0;
    for (std::uint64_t step = epoch * s.steps_per_epoch(); step < (epoch + 1) * s.steps_per_epoch();
         ++step)
      for (std::uint64_t a = 0; a < 3; ++a)
        for (std::uint64_t p = 0; p < 5; ++p) {
          shard[a].insert(s.sample(s.first_job(step, a) + p));
          ++jobs;
        }
    INFO("epoch " << epoch);
    CHECK(shard[0].size() + shard[1].size() + shard[2].size() == jobs);
    std::set<std::uint32_t> all;
    for (const auto& sh : shard)
      all.insert(sh.begin(), sh.end());
    CHECK(all.size() == jobs);
  }
}

TEST_CASE("sampler draws a new order every epoch", "[sampler]") {
  const sampler s(1000, 2, 10, 3, 5);
  const auto e0 = epoch_samples(s, 0);
  const auto e1 = epoch_samples(s, 1);
  const auto e2 = epoch_samples(s, 2);
  CHECK(e0 != e1);
  CHECK(e1 != e2);
  CHECK(e0 != e2);
  // Every epoch still covers the same whole dataset (nothing dropped here).
  CHECK(std::set<std::uint32_t>(e0.begin(), e0.end()) ==
        std::set<std::uint32_t>(e1.begin(), e1.end()));
}

TEST_CASE("sampler order is reproducible for a seed and differs across seeds", "[sampler]") {
  const sampler a(1000, 2, 10, 2, 42);
  const sampler b(1000, 2, 10, 2, 42);
  const sampler c(1000, 2, 10, 2, 43);
  std::vector<std::uint32_t> ja, jb, jc;
  for (std::uint64_t k = 0; k < a.total_jobs(); ++k) {
    ja.push_back(a.sample(k));
    jb.push_back(b.sample(k));
    jc.push_back(c.sample(k));
  }
  CHECK(ja == jb);
  CHECK(ja != jc);
}

TEST_CASE("sampler slot(k) decodes the job that first_job(step, accelerator) encodes",
          "[sampler]") {
  const sampler s(1000, 4, 7, 3, 1);
  std::uint64_t k = 0;
  for (std::uint64_t step = 0; step < s.total_steps(); ++step)
    for (std::uint64_t a = 0; a < 4; ++a) {
      REQUIRE(s.first_job(step, a) == k);
      for (std::uint64_t p = 0; p < 7; ++p, ++k) {
        const auto slot = s.slot(k);
        INFO("job " << k);
        CHECK(slot.step == step);
        CHECK(slot.accelerator == a);
        CHECK(slot.position == p);
        CHECK(slot.epoch == step / s.steps_per_epoch());
      }
    }
  CHECK(k == s.total_jobs());
  // The last job of an epoch and the first of the next fall on either side of the boundary.
  const std::uint64_t per_epoch = s.steps_per_epoch() * 4 * 7;
  CHECK(s.slot(per_epoch - 1).epoch == 0);
  CHECK(s.slot(per_epoch).epoch == 1);
  CHECK(s.slot(per_epoch).step == s.steps_per_epoch());
}

TEST_CASE("sampler rejects a dataset smaller than one step, naming --dataset", "[sampler]") {
  const auto msg = usage_error_message([] { (void)sampler(79, 8, 10, 1, 1); });
  CHECK_THAT(msg, Contains("--dataset"));
  CHECK_THAT(msg, Contains("79 samples"));
  // Exactly one step's worth is enough.
  CHECK(sampler(80, 8, 10, 1, 1).steps_per_epoch() == 1);
}

TEST_CASE("sampler rejects zero accelerators, zero batch size and zero epochs", "[sampler]") {
  CHECK_THAT(usage_error_message([] { (void)sampler(100, 0, 10, 1, 1); }),
             Contains("--accelerators"));
  CHECK_THAT(usage_error_message([] { (void)sampler(100, 2, 0, 1, 1); }), Contains("--batch-size"));
  CHECK_THAT(usage_error_message([] { (void)sampler(100, 2, 10, 0, 1); }), Contains("--epochs"));
}

TEST_CASE("sampler rejects a batch so large that accelerators x batch would overflow",
          "[sampler]") {
  // 4096 × 2^52 wraps to 0 and 4096 × (2^52 + 1) to 4096 in 64 bits: both must still be refused.
  for (const std::uint64_t batch : {std::uint64_t{1} << 52, (std::uint64_t{1} << 52) + 1}) {
    const auto msg = usage_error_message([&] { (void)sampler(100000, 4096, batch, 1, 1); });
    CHECK_THAT(msg, Contains("do not fill one step"));
  }
}
