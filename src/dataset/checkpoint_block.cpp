#include "dataset/checkpoint_block.hpp"

#include <algorithm>
#include <array>
#include <cstring>

#include <fmt/format.h>

#include "core/crc32c.hpp"
#include "core/rng.hpp"

namespace dlsize::dataset {
namespace {

constexpr std::uint16_t kVersion = 1;

template <class T> void put(std::byte* p, std::size_t at, T v) {
  std::memcpy(p + at, &v, sizeof v);
}
template <class T> T get(const std::byte* p, std::size_t at) {
  T v;
  std::memcpy(&v, p + at, sizeof v);
  return v;
}

std::array<std::byte, kBlockHeaderBytes> header(const block_id& id, std::uint32_t len,
                                                std::uint32_t crc) {
  std::array<std::byte, kBlockHeaderBytes> h{};
  put(h.data(), 0, kCheckpointMagic);
  put(h.data(), 4, kVersion);
  put(h.data(), 6, static_cast<std::uint16_t>(kBlockHeaderBytes));
  put(h.data(), 8, id.rank);
  put(h.data(), 12, id.file);
  put(h.data(), 16, id.run);
  put(h.data(), 24, id.checkpoint);
  put(h.data(), 32, id.offset);
  put(h.data(), 40, len);
  put(h.data(), 44, crc);
  return h;
}

std::uint64_t place_key(const block_id& id) {
  return splitmix64(splitmix64(splitmix64(id.run ^ id.checkpoint) ^ id.rank) ^
                    (std::uint64_t{id.file} << 40) ^ id.offset);
}

// The block whose payload a block carries: itself, or for a repeating block the rank's first
// block of the checkpoint (so what repeats differs between checkpoints, as fio's does per job).
block_id payload_source(const block_id& id, unsigned dedupe_percent) {
  constexpr std::uint64_t kDedupeSalt = 0x6465647570ull; // "dedup": a draw apart from the place
  if (dedupe_percent == 0 || splitmix64(place_key(id) ^ kDedupeSalt) % 100 >= dedupe_percent)
    return id;
  block_id first = id;
  first.file = 0;
  first.offset = 0;
  return first;
}

} // namespace

std::size_t block_pool::size_for(std::uint64_t rank_bytes, std::size_t request_size) {
  constexpr std::uint64_t kMaxPoolBytes = 64u << 20;
  return static_cast<std::size_t>(std::clamp<std::uint64_t>(
      rank_bytes, request_size, std::max<std::uint64_t>(request_size, kMaxPoolBytes)));
}

block_pool::block_pool(std::size_t bytes, std::size_t max_block, std::uint64_t seed,
                       block_content content)
    : m_bytes(make_aligned_buffer(std::max(bytes, max_block) + max_block)),
      m_size(std::max(bytes, max_block)), m_max_block(max_block), m_content(content) {
  xoshiro256 rng(seed);
  auto* w = reinterpret_cast<std::uint64_t*>(m_bytes.get());
  for (std::size_t i = 0; i < (m_size + m_max_block) / 8; ++i)
    w[i] = rng.next();
}

void block_pool::fill(const block_id& id, std::byte* dst, std::size_t len) const {
  std::uint32_t crc = 0;
  if (len > kBlockHeaderBytes) {
    const std::size_t payload = len - kBlockHeaderBytes;
    // 8-byte steps: the copy stays word-aligned, and the pool gives m_size / 8 places.
    const std::size_t from =
        place_key(payload_source(id, m_content.dedupe_percent)) % (m_size / 8) * 8;
    std::byte* out = dst + kBlockHeaderBytes;
    if (m_content.compress_percent == 0) {
      std::memcpy(out, m_bytes.get() + from, payload);
    } else {
      // Each 4 KiB chunk: random bytes, then compress_percent of it zeros (fio's rule, per chunk
      // so that a filer compressing small chunks sees the same ratio).
      const std::size_t random_bytes =
          kCompressChunkBytes * (100 - m_content.compress_percent) / 100;
      for (std::size_t at = 0; at < payload; at += kCompressChunkBytes) {
        const std::size_t chunk = std::min(kCompressChunkBytes, payload - at);
        const std::size_t r = std::min(chunk, random_bytes);
        std::memcpy(out + at, m_bytes.get() + from + at, r);
        std::memset(out + at + r, 0, chunk - r);
      }
    }
    crc = crc32c(0, dst + kBlockHeaderBytes, payload);
  }
  const auto h = header(id, static_cast<std::uint32_t>(len), crc);
  std::memcpy(dst, h.data(), std::min(len, kBlockHeaderBytes));
}

std::string check_block(const block_id& id, const std::byte* data, std::size_t len) {
  const std::uint32_t crc =
      len > kBlockHeaderBytes ? crc32c(0, data + kBlockHeaderBytes, len - kBlockHeaderBytes) : 0;
  const auto want = header(id, static_cast<std::uint32_t>(len), crc);
  const std::size_t n = std::min(len, kBlockHeaderBytes);
  if (std::memcmp(data, want.data(), n) == 0)
    return "";
  if (n < kBlockHeaderBytes || get<std::uint32_t>(data, 0) != kCheckpointMagic)
    return "not a dlsize checkpoint block (header differs)";
  auto differs = [&](const char* what, std::size_t at, auto type_of) -> std::string {
    using T = decltype(type_of);
    const T found = get<T>(data, at), expected = get<T>(want.data(), at);
    if (found == expected)
      return "";
    return fmt::format("written {} {}, expected {}", what, found, expected);
  };
  for (const auto& s :
       {differs("by run", 16, std::uint64_t{}), differs("by checkpoint", 24, std::uint64_t{}),
        differs("by rank", 8, std::uint32_t{}), differs("as file", 12, std::uint32_t{}),
        differs("at offset", 32, std::uint64_t{}), differs("with length", 40, std::uint32_t{})})
    if (!s.empty())
      return s + " (a stale or misplaced block)";
  return fmt::format("payload checksum 0x{:08x} differs from the header's 0x{:08x} (corrupted)",
                     crc, get<std::uint32_t>(data, 44));
}

bool begins_shard(const std::byte* data, std::size_t n, std::uint64_t run, std::uint32_t rank,
                  std::uint32_t file) {
  block_id id;
  id.run = run;
  id.rank = rank;
  id.file = file;
  const auto want = header(id, 0, 0);
  return std::memcmp(data, want.data(), std::min(n, kShardIdBytes)) == 0;
}

} // namespace dlsize::dataset
