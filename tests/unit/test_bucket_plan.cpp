// Unit tests for src/accel/cuda/bucket_plan.hpp: which gradients each NCCL allreduce bucket
// holds (pure logic of the CUDA module, tested without a GPU).
#include <algorithm>
#include <cstddef>
#include <vector>

#include <catch2/catch.hpp>

#include "accel/cuda/bucket_plan.hpp"

namespace {

using dlsize::cuda::grad_bucket;
using dlsize::cuda::plan_buckets;

// conv (100 weights), bn (10), relu, conv (200), bn (20), fc (50 weights, 5 biases).
const std::vector<std::size_t> h_off = {0, 100, 100, 100, 300, 300},
                               h_len = {100, 0, 0, 200, 0, 50};
const std::vector<std::size_t> f_off = {0, 0, 10, 10, 10, 30}, f_len = {0, 10, 0, 0, 20, 5};

} // namespace

TEST_CASE("buckets close at the bucket size from the last layer back", "[buckets]") {
  // fc 120 B, bn 80 B, conv 400 B reach 450 B; then bn 40 B and conv 200 B end at layer 0.
  const auto b = plan_buckets(h_off, h_len, f_off, f_len, 2, 450);
  REQUIRE(b.size() == 2);
  CHECK(b[0].lowest_layer == 3);
  CHECK(b[0].h_off == 100);
  CHECK(b[0].h_len == 250);
  CHECK(b[0].f_off == 10);
  CHECK(b[0].f_len == 25);
  CHECK(b[1].lowest_layer == 0);
  CHECK(b[1].h_off == 0);
  CHECK(b[1].h_len == 100);
  CHECK(b[1].f_off == 0);
  CHECK(b[1].f_len == 10);
}

TEST_CASE("buckets cover every gradient once, whatever the bucket size", "[buckets]") {
  for (std::size_t size : {1, 100, 450, 1000, 1 << 30}) {
    const auto b = plan_buckets(h_off, h_len, f_off, f_len, 2, size);
    std::vector<int> h(350, 0), f(35, 0);
    for (const grad_bucket& x : b) {
      CHECK(h_len[static_cast<std::size_t>(x.lowest_layer)] +
                f_len[static_cast<std::size_t>(x.lowest_layer)] >
            0);
      for (std::size_t i = x.h_off; i < x.h_off + x.h_len; ++i)
        ++h[i];
      for (std::size_t i = x.f_off; i < x.f_off + x.f_len; ++i)
        ++f[i];
    }
    INFO("bucket size " << size << ": " << b.size() << " buckets");
    CHECK(std::count(h.begin(), h.end(), 1) == 350);
    CHECK(std::count(f.begin(), f.end(), 1) == 35);
  }
}

TEST_CASE("a bucket per layer starts after each layer with parameters, last first", "[buckets]") {
  std::vector<int> lowest;
  for (const grad_bucket& x : plan_buckets(h_off, h_len, f_off, f_len, 2, 1))
    lowest.push_back(x.lowest_layer);
  CHECK(lowest == std::vector<int>{5, 4, 3, 1, 0});
}
