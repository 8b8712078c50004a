// Unit tests for src/analysis/read_amplification: bytes read per sample byte from the engine's
// O_DIRECT alignment rule, against the ratios measured before (resnet50 1.04×, bert-large 1.58×).
#include <catch2/catch.hpp>

#include "analysis/read_amplification.hpp"

using namespace dlsize;

TEST_CASE("plan's read amplification for bert-large direct is above 1.4", "[plan]") {
  const auto a =
      analysis::amplification_of(7060, config::file_layout::shards, io::cache_mode::direct);
  CHECK(a.factor > 1.4);
  CHECK(a.factor == Approx(1.58).margin(0.01)); // measured: 1.58×
}

TEST_CASE("read amplification of resnet50 records is about 1.04 under O_DIRECT", "[plan]") {
  const auto a =
      analysis::amplification_of(114660, config::file_layout::shards, io::cache_mode::direct);
  CHECK(a.factor == Approx(1.036).margin(0.002));
}

TEST_CASE("a sample that is a whole file is rounded up to a block, and buffered reads are 1x",
          "[plan]") {
  CHECK(
      analysis::amplification_of(4096, config::file_layout::files, io::cache_mode::direct).factor ==
      Approx(1.0));
  CHECK(
      analysis::amplification_of(2048, config::file_layout::files, io::cache_mode::direct).factor ==
      Approx(2.0));
  CHECK(analysis::amplification_of(7060, config::file_layout::shards, io::cache_mode::buffered)
            .factor == Approx(1.0));
  CHECK_THROWS(analysis::amplification_of(0, config::file_layout::files, io::cache_mode::direct));
}
