// Unit tests for src/model/allreduce_model.hpp: the allreduce cost against its closed forms.
#include <catch2/catch.hpp>

#include "test_support.hpp"

#include "model/allreduce_model.hpp"

namespace {

using namespace dlsize::model;
using Catch::Matchers::Contains;

// ResNet-50's fp32 gradients over NVLink 2 and one EDR port, as on the seed's V100 servers.
constexpr double kBytes = 25'557'032.0 * 4;
const fabric kFabric{150e9, 12.1e9, 3.4e-6, 9.6e-6};

} // namespace

TEST_CASE("an allreduce over one accelerator costs nothing", "[allreduce]") {
  for (auto a : {allreduce_algorithm::ring, allreduce_algorithm::hierarchical}) {
    const allreduce_cost c = allreduce_time(a, kBytes, {1, 1}, kFabric);
    CHECK(c.total_s() == 0);
  }
  CHECK(allreduce_time(allreduce_algorithm::none, kBytes, {4, 8}, kFabric).total_s() == 0);
}

TEST_CASE("a ring inside one node follows 2(n-1)·alpha + 2(n-1)/n · S / B", "[allreduce]") {
  const allreduce_cost c = ring_allreduce(kBytes, {1, 8}, kFabric);
  CHECK(c.latency_s == Approx(14 * 3.4e-6));
  CHECK(c.intra_s == Approx(2.0 * 7 / 8 * kBytes / 150e9));
  CHECK(c.inter_s == 0);
}

TEST_CASE("a ring across nodes runs at the NICs' pace and counts its inter-node hops apart",
          "[allreduce]") {
  const allreduce_cost c = ring_allreduce(kBytes, {2, 8}, kFabric);
  CHECK(c.latency_s == Approx((30 - 2) * 3.4e-6 + 2 * 9.6e-6));
  CHECK(c.inter_s == Approx(2.0 * 15 / 16 * kBytes / 12.1e9));
  CHECK(c.intra_s == 0);
}

TEST_CASE("twice the bandwidth halves the bandwidth term", "[allreduce]") {
  fabric fast = kFabric;
  fast.intra_bytes_per_s *= 2;
  fast.inter_bytes_per_s *= 2;
  for (auto a : {allreduce_algorithm::ring, allreduce_algorithm::hierarchical})
    for (job_layout l : {job_layout{1, 8}, job_layout{2, 8}, job_layout{4, 4}}) {
      const allreduce_cost slow = allreduce_time(a, kBytes, l, kFabric);
      const allreduce_cost quick = allreduce_time(a, kBytes, l, fast);
      CHECK(quick.intra_s + quick.inter_s == Approx((slow.intra_s + slow.inter_s) / 2));
      CHECK(quick.latency_s == Approx(slow.latency_s));
    }
}

TEST_CASE("hierarchical equals ring with one accelerator per node", "[allreduce]") {
  for (std::uint64_t nodes : {2u, 3u, 4u, 16u}) {
    const job_layout l{nodes, 1};
    CHECK(hierarchical_allreduce(kBytes, l, kFabric).total_s() ==
          Approx(ring_allreduce(kBytes, l, kFabric).total_s()));
  }
}

TEST_CASE("hierarchical equals ring inside one node", "[allreduce]") {
  CHECK(hierarchical_allreduce(kBytes, {1, 8}, kFabric).total_s() ==
        Approx(ring_allreduce(kBytes, {1, 8}, kFabric).total_s()));
}

TEST_CASE("hierarchical moves 2(N-1)/N of the buffer over each node's NICs", "[allreduce]") {
  const allreduce_cost two = hierarchical_allreduce(kBytes, {2, 8}, kFabric);
  const allreduce_cost four = hierarchical_allreduce(kBytes, {4, 4}, kFabric);
  CHECK(two.inter_s == Approx(1.0 * kBytes / 12.1e9));
  CHECK(four.inter_s == Approx(1.5 * kBytes / 12.1e9));
  CHECK(two.intra_s == Approx(2.0 * 7 / 8 * kBytes / 150e9));
  CHECK(four.intra_s == Approx(2.0 * 3 / 4 * kBytes / 150e9));
  CHECK(two.latency_s == Approx(14 * 3.4e-6 + 2 * 9.6e-6));
  // Scale-out costs more than scale-up at equal accelerator counts; a flat ring cannot tell.
  CHECK(four.total_s() > two.total_s());
  CHECK(hierarchical_allreduce(kBytes, {2, 2}, kFabric).total_s() >
        hierarchical_allreduce(kBytes, {1, 4}, kFabric).total_s());
  CHECK(ring_allreduce(kBytes, {4, 4}, kFabric).inter_s ==
        Approx(ring_allreduce(kBytes, {2, 8}, kFabric).inter_s));
}

TEST_CASE("the exposed time is what the overlap with the backward pass leaves", "[allreduce]") {
  CHECK(exposed_time(0.05, 0.13, 0) == Approx(0.05));
  CHECK(exposed_time(0.05, 0.13, 0.25) == Approx(0.05 - 0.0325));
  CHECK(exposed_time(0.05, 0.13, 1) == 0);
}

TEST_CASE("a layout or a link of nothing is refused", "[allreduce]") {
  CHECK_THROWS_AS(ring_allreduce(kBytes, {0, 8}, kFabric), std::invalid_argument);
  fabric none = kFabric;
  none.inter_bytes_per_s = 0;
  CHECK_THROWS_AS(hierarchical_allreduce(kBytes, {2, 8}, none), std::invalid_argument);
  CHECK_NOTHROW(hierarchical_allreduce(kBytes, {1, 8}, none));
  CHECK_THAT(
      dlsize::test::usage_error_message([] { parse_allreduce_algorithm("tree", "--allreduce"); }),
      Contains("--allreduce") && Contains("hierarchical"));
  CHECK(parse_allreduce_algorithm("hierarchical", "--allreduce") ==
        allreduce_algorithm::hierarchical);
}
