// Unit tests for pipeline::read_checked: a restore whose bytes arrive in pieces that begin and
// end inside blocks (an object's body comes in pieces of curl's buffer) checks every block, and
// still finds a corrupted one; range_jobs splits shards into parts.
#include <atomic>
#include <vector>

#include <catch2/catch.hpp>

#include "dataset/checkpoint_block.hpp"
#include "dataset/checkpoint_folder.hpp"
#include "pipeline/checkpoint_phase.hpp"

namespace {

using namespace dlsize;
constexpr std::uint32_t kPieceBlock = 64 * 1024;

// Hands each job's bytes to the consumer in pieces of `piece` bytes, in order, as the s3
// engine does with a body.
class piece_engine : public io::engine {
public:
  piece_engine(const std::vector<std::vector<std::byte>>& files, std::size_t piece)
      : m_files(files), m_piece(piece) {}
  std::string name() const override { return "pieces"; }
  io::engine_result run(io::job_source& source, io::job_consumer& consumer,
                        const std::atomic<bool>&) override {
    io::engine_result res;
    res.readers.resize(1);
    io::read_job job;
    while (source.pull(0, job) == io::pull_result::job) {
      consumer.on_start(0, job);
      for (std::uint64_t at = job.offset; at < job.offset + job.length; at += m_piece) {
        const std::size_t n = std::min<std::uint64_t>(m_piece, job.offset + job.length - at);
        consumer.on_data(0, job, at, m_files[job.file].data() + at, n);
        res.readers[0].bytes += n;
        ++res.readers[0].requests;
      }
      consumer.on_done(0, job, job.length, 0, io::job_outcome::done, "");
    }
    return res;
  }
  std::string stuck_read(std::uint64_t) const override { return ""; }

private:
  const std::vector<std::vector<std::byte>>& m_files;
  std::size_t m_piece;
};

struct shards {
  dataset::checkpoint_set set;
  io::file_set files;
  std::vector<std::vector<std::byte>> bytes;
};

// Rank 0's 2 shards of checkpoint 3, 3.5 blocks each, as a write made them.
shards written() {
  shards s;
  s.set.run = 77;
  s.set.request_size = kPieceBlock;
  s.set.files_per_rank = 2;
  s.set.rank_bytes = {7 * kPieceBlock};
  const dataset::block_pool pool(1 << 20, kPieceBlock, 5);
  for (unsigned f = 0; f < 2; ++f) {
    const std::uint64_t size = s.set.file_bytes(0)[f];
    std::vector<std::byte> b(size);
    for (std::uint64_t at = 0; at < size; at += kPieceBlock)
      pool.fill({77, 0, f, 3, at}, b.data() + at, std::min<std::uint64_t>(kPieceBlock, size - at));
    s.files.paths.push_back("shard-" + std::to_string(f));
    s.files.sizes.push_back(size);
    s.bytes.push_back(std::move(b));
  }
  return s;
}

} // namespace

TEST_CASE("a restore whose bytes come in pieces across blocks checks every block", "[checkpoint]") {
  shards s = written();
  REQUIRE(s.files.sizes[0] == 3 * kPieceBlock + kPieceBlock / 2);
  pipeline::phase_io io;
  io.request_size = kPieceBlock;
  for (std::size_t piece :
       {std::size_t{7000}, std::size_t{kPieceBlock}, std::size_t{3 * kPieceBlock}}) {
    piece_engine eng(s.bytes, piece);
    pipeline::range_jobs jobs(s.files, 2 * kPieceBlock); // parts of 2 blocks: 2 jobs a shard
    const pipeline::rank_phase p = pipeline::read_checked(s.set, 0, 3, s.files, eng, jobs, io);
    INFO("pieces of " << piece);
    CHECK(p.error.empty());
    CHECK(p.blocks == 8); // 4 a shard, the last half a block
    CHECK(p.mismatches == 0);
    CHECK(p.bytes == 7 * kPieceBlock);
  }
  // One byte changed in the middle of shard 1's third block, which straddles pieces of 7000.
  s.bytes[1][2 * kPieceBlock + 100] ^= std::byte{1};
  piece_engine eng(s.bytes, 7000);
  pipeline::range_jobs jobs(s.files, 2 * kPieceBlock);
  const pipeline::rank_phase p = pipeline::read_checked(s.set, 0, 3, s.files, eng, jobs, io);
  CHECK(p.blocks == 8);
  REQUIRE(p.mismatches == 1);
  CHECK_THAT(p.problems[0], Catch::Matchers::Contains("shard-1 at offset 131072"));
}

TEST_CASE("range_jobs splits each shard into parts, or takes it whole", "[checkpoint]") {
  io::file_set files;
  files.paths = {"a", "b"};
  files.sizes = {10, 4};
  pipeline::range_jobs parts(files, 4);
  std::vector<std::uint64_t> got;
  io::read_job job;
  while (parts.pull(0, job) == io::pull_result::job)
    got.insert(got.end(), {job.file, job.offset, job.length});
  CHECK(got == std::vector<std::uint64_t>{0, 0, 4, 0, 4, 4, 0, 8, 2, 1, 0, 4});
  pipeline::range_jobs whole(files, 0);
  REQUIRE(whole.pull(0, job) == io::pull_result::job);
  CHECK((job.file == 0 && job.offset == 0 && job.length == 10));
}
