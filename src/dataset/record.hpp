#pragma once
// The on-disk record: a 32-byte little-endian header, then the payload.
//   u32 magic 'DLSR' | u16 version | u16 header bytes | u64 dataset id | u64 record index |
//   u32 payload bytes | u32 CRC32C of the payload
// A record's size (header included) is the sample size the workload profile asks for, so the
// bytes on disk match the workload's bytes per sample.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace dlsize::dataset {

inline constexpr std::uint32_t kRecordMagic = 0x52534c44u; // "DLSR"
inline constexpr std::uint16_t kRecordVersion = 1;
inline constexpr std::size_t kHeaderBytes = 32;
inline constexpr std::uint64_t kMinRecordBytes = 64;

struct record_header {
  std::uint64_t dataset_id = 0;
  std::uint64_t index = 0;
  std::uint32_t payload_bytes = 0;
  std::uint32_t payload_crc = 0;
};

void encode_header(const record_header& h, std::byte* out);
// Returns the header, or nullopt if magic, version or header size do not match.
std::optional<record_header> decode_header(const std::byte* in);

// Fills payload with the deterministic bytes of record `index` of dataset `dataset_id`.
void fill_payload(std::uint64_t dataset_id, std::uint64_t index, std::byte* payload,
                  std::size_t bytes);

// Writes a whole record (header + payload) of total size record_bytes into out.
void make_record(std::uint64_t dataset_id, std::uint64_t index, std::uint64_t record_bytes,
                 std::byte* out);

} // namespace dlsize::dataset
