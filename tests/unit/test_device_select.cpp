// Unit tests for src/accel/device_select: which GPU a rank drives, and two ranks of a host on
// one GPU.
#include <catch2/catch.hpp>

#include "accel/device_select.hpp"
#include "test_support.hpp"

namespace {

using namespace dlsize::accel;
using Catch::Matchers::Contains;
using dlsize::test::usage_error_message;

} // namespace

TEST_CASE("a rank drives its local rank's GPU among those it sees, modulo their number",
          "[device]") {
  CHECK(device_for_local_rank(0, 8) == 0);
  CHECK(device_for_local_rank(5, 8) == 5);
  // One visible GPU per rank (CUDA_VISIBLE_DEVICES per rank, --gpus-per-task=1): device 0.
  CHECK(device_for_local_rank(3, 1) == 0);
  CHECK(device_for_local_rank(7, 4) == 3);
  CHECK_THAT(usage_error_message([] { (void)device_for_local_rank(0, 0); }),
             Contains("sees no GPU"));
  CHECK_THAT(usage_error_message([] { (void)device_for_local_rank(-1, 2); }),
             Contains("local rank -1"));
}

TEST_CASE("two ranks of one host on the same GPU are named, ranks of two hosts are not",
          "[device]") {
  CHECK_FALSE(duplicate_gpu({"a", "a"}, {"0000:01:00.0", "0000:02:00.0"}));
  CHECK_FALSE(duplicate_gpu({"a", "b"}, {"0000:01:00.0", "0000:01:00.0"}));
  const auto dup = duplicate_gpu({"a", "b", "a"}, {"0000:01:00.0", "0000:01:00.0", "0000:01:00.0"});
  REQUIRE(dup);
  CHECK(*dup == "ranks 0 and 2 on host a both drive GPU 0000:01:00.0");
}
