#include <fstream>
#include <vector>

#include <catch2/catch.hpp>

#include "dataset/checkpoint_block.hpp"
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

namespace {
void write_bytes(const std::filesystem::path& p, const std::vector<std::byte>& bytes) {
  std::ofstream out(p, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}
} // namespace

TEST_CASE("checkpoint cleanup removes only the shards this run wrote, by content",
          "[checkpoint_folder]") {
  using namespace dlsize::dataset;
  dlsize::test::temp_dir dir;
  checkpoint_set s;
  s.run = 0x1122334455667788ull;
  s.request_size = 4096;
  s.files_per_rank = 4;
  s.rank_bytes = {4 * 8192};
  const block_pool pool(1 << 16, 4096, 3);
  auto shard = [&](std::uint64_t run, unsigned file) {
    std::vector<std::byte> b(8192);
    pool.fill({run, 0, file, 1, 0}, b.data(), 4096);
    pool.fill({run, 0, file, 1, 4096}, b.data() + 4096, 4096);
    return b;
  };
  write_bytes(dir.path / shard_name(0, 0), shard(s.run, 0));     // ours
  write_bytes(dir.path / shard_name(0, 1), shard(s.run + 1, 1)); // another run's
  write_bytes(dir.path / shard_name(0, 2), std::vector<std::byte>(100, std::byte{'x'}));
  auto big = shard(s.run, 3);
  big.resize(big.size() + 1); // ours by its header, but larger than any shard of this run
  write_bytes(dir.path / shard_name(0, 3), big);
  const auto left = remove_rank_shards(dir.path, s, 0);
  REQUIRE(left.size() == 3); // what the report's warnings say
  CHECK_THAT(left[0], Catch::Contains(shard_name(0, 1)) && Catch::Contains("did not write it"));
  CHECK_FALSE(std::filesystem::exists(dir.path / shard_name(0, 0)));
  CHECK(std::filesystem::exists(dir.path / shard_name(0, 1)));
  CHECK(std::filesystem::exists(dir.path / shard_name(0, 2)));
  CHECK(std::filesystem::exists(dir.path / shard_name(0, 3)));
  // The folder stays, named with what it holds.
  const auto kept = remove_empty_folder(dir.path);
  REQUIRE(kept.size() == 1);
  CHECK_THAT(kept[0], Catch::Contains("it holds files dlsize did not write: ") &&
                          Catch::Contains(shard_name(0, 1)));
  CHECK(remove_empty_folder(dir.path / "absent").empty());
}
