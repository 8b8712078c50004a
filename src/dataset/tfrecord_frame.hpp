#pragma once
// TFRecord's framing, the one definition the index's probe and bench --verify read by. A record
// is, little-endian:
//   u64 length | u32 masked_crc32c(length's 8 bytes) | data | u32 masked_crc32c(data)
// where mask(c) = ((c >> 15) | (c << 17)) + 0xa282ead8. The index's sample of a record is the
// whole frame (header, data and footer), so a verified read needs no byte more than a plain one.
#include <cstddef>
#include <cstdint>
#include <string>

namespace dlsize::dataset {

inline constexpr std::size_t kTfrecordHeaderBytes = 12; // length and its masked CRC
inline constexpr std::size_t kTfrecordFooterBytes = 4;  // the data's masked CRC
inline constexpr std::uint64_t kTfrecordFrameBytes = kTfrecordHeaderBytes + kTfrecordFooterBytes;

// TFRecord's mask of a CRC32C (so that a CRC of data holding CRCs is not itself a weak one).
std::uint32_t tfrecord_mask(std::uint32_t crc);
// TFRecord's masked CRC32C of data.
std::uint32_t tfrecord_masked_crc(const void* data, std::size_t len);

// What is wrong with the header of a record whose frame is frame_bytes long (as the index
// located it): a length CRC that does not match, or a length that does not fill the frame.
// Empty when the header is right.
std::string check_tfrecord_header(const std::byte* header, std::uint64_t frame_bytes);

// What is wrong with a record's footer given the CRC32C (unmasked) of its data; empty when the
// masked CRC matches.
std::string check_tfrecord_footer(const std::byte* footer, std::uint32_t data_crc);

} // namespace dlsize::dataset
