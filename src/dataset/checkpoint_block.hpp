#pragma once
// The on-disk block of a checkpoint shard. Every block (one write request) starts with a
// 64-byte little-endian header, then payload copied from a pre-filled pool at a place that the
// header decides, so by default no two blocks of a run are alike (deduplicating or compressing
// filers are not flattered) and a block left from an earlier checkpoint fails verification:
//   u32 magic 'DLCK' | u16 version | u16 header bytes | u32 rank | u32 file | u64 run |
//   u64 checkpoint | u64 offset | u32 block bytes | u32 CRC32C of the payload | 16 zero bytes
// A block shorter than the header (a file's tail) holds the header's first bytes.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/aligned_buffer.hpp"

namespace dlsize::dataset {

inline constexpr std::uint32_t kCheckpointMagic = 0x4b434c44u; // "DLCK"
inline constexpr std::size_t kBlockHeaderBytes = 64;

// Where a block belongs: what verification expects and what the header records.
struct block_id {
  std::uint64_t run = 0; // the checkpoint folder's id: blocks of another run fail
  std::uint32_t rank = 0, file = 0;
  std::uint64_t checkpoint = 0;
  std::uint64_t offset = 0;
};

// How alike the payloads are, as fio's dedupe_percentage and buffer_compress_percentage:
// dedupe_percent of the blocks (chosen by a hash of their id) repeat the payload of the rank's
// first block of that checkpoint (their headers stay unique, so verification still tells every
// block apart: a filer deduplicating 4 KiB chunks sees all but a block's first chunk repeat);
// compress_percent of every 4 KiB of payload is zeros after the random bytes.
struct block_content {
  unsigned dedupe_percent = 0, compress_percent = 0; // 0..100
};
inline constexpr std::size_t kCompressChunkBytes = 4096;

// Random bytes made once before any write; blocks copy their payload from it.
class block_pool {
public:
  // bytes: the pool's size (at least one block; 64 MiB is plenty), filled from seed.
  block_pool(std::size_t bytes, std::size_t max_block, std::uint64_t seed,
             block_content content = {});
  // Fills a block of len bytes at dst: header, then payload from the pool at a place chosen
  // by id (and the content rule). The CPU cost of a block is one copy and one CRC32C of it.
  void fill(const block_id& id, std::byte* dst, std::size_t len) const;

  // The pool a rank writing `rank_bytes` in requests of `request_size` needs: its whole share
  // when that is small, never less than one request, never more than 64 MiB.
  static std::size_t size_for(std::uint64_t rank_bytes, std::size_t request_size);

private:
  aligned_buffer m_bytes;
  std::size_t m_size = 0, m_max_block = 0;
  block_content m_content;
};

// Checks a block read back: its header must be the one `id` expects and its payload must match
// the header's CRC32C. Returns "" when it does, otherwise what is wrong ("written by checkpoint
// 3, expected 4", "payload checksum 0x... differs from the header's 0x...").
std::string check_block(const block_id& id, const std::byte* data, std::size_t len);

// Whether the first n bytes of a shard file (n: up to the 24 bytes of magic, version, header
// bytes, rank, file and run) are those a block of (run, rank, file) begins with: a shard that
// this run wrote, as far as its first bytes tell. Fewer bytes tell less; none tell nothing.
bool begins_shard(const std::byte* data, std::size_t n, std::uint64_t run, std::uint32_t rank,
                  std::uint32_t file);
inline constexpr std::size_t kShardIdBytes = 24;

} // namespace dlsize::dataset
