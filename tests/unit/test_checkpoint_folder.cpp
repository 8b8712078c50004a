#include <catch2/catch.hpp>

#include "dataset/checkpoint_folder.hpp"
#include "test_support.hpp"

using dlsize::dataset::checkpoint_set;
using dlsize::test::usage_error_message;

TEST_CASE("a checkpoint manifest keeps what the writes put in the blocks", "[checkpoint_folder]") {
  checkpoint_set s;
  s.run = 0x0123456789abcdefull;
  s.workload = "llama3-8b";
  s.request_size = 65536;
  s.rank_bytes = {1000, 2000};
  s.checkpoints = {1, 2};
  s.written.content = {30, 60};
  s.written.scale = 0.25;
  s.written.subset = true;
  const auto back = checkpoint_set::from_json(s.to_json(), "manifest");
  CHECK(back.written_recorded);
  CHECK(back.written == s.written);
  CHECK(back.run == s.run);
  CHECK(back.rank_bytes == s.rank_bytes);
}

TEST_CASE("a manifest without a content record says so", "[checkpoint_folder]") {
  checkpoint_set s;
  s.workload = "unet3d";
  s.request_size = 4096;
  s.rank_bytes = {10};
  auto j = s.to_json();
  j.erase("content"); // as a dlsize from before the record wrote it
  const auto back = checkpoint_set::from_json(j, "manifest");
  CHECK_FALSE(back.written_recorded);
  j = s.to_json();
  j["content"]["dedupe_percent"] = 101;
  CHECK_THAT(usage_error_message([&] { (void)checkpoint_set::from_json(j, "manifest"); }),
             Catch::Matchers::Contains("dedupe_percent"));
}
