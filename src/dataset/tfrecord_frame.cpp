#include "dataset/tfrecord_frame.hpp"

#include <fmt/format.h>

#include "core/crc32c.hpp"
#include "dataset/byte_source.hpp"

namespace dlsize::dataset {
namespace {

std::uint64_t le(const std::byte* p, int n) {
  return little_endian(reinterpret_cast<const unsigned char*>(p), n);
}

} // namespace

std::uint32_t tfrecord_mask(std::uint32_t crc) {
  return ((crc >> 15) | (crc << 17)) + 0xa282ead8u;
}

std::uint32_t tfrecord_masked_crc(const void* data, std::size_t len) {
  return tfrecord_mask(crc32c(0, data, len));
}

std::string check_tfrecord_header(const std::byte* header, std::uint64_t frame_bytes) {
  const auto stored = static_cast<std::uint32_t>(le(header + 8, 4));
  const std::uint32_t computed = tfrecord_masked_crc(header, 8);
  if (stored != computed)
    return fmt::format("length CRC mismatch (stored masked crc32c {:08x}, computed {:08x})", stored,
                       computed);
  const std::uint64_t length = le(header, 8);
  if (frame_bytes < kTfrecordFrameBytes || length != frame_bytes - kTfrecordFrameBytes)
    return fmt::format("length field says {} bytes of data; the index's record of {} bytes holds "
                       "{}",
                       length, frame_bytes,
                       frame_bytes < kTfrecordFrameBytes ? 0 : frame_bytes - kTfrecordFrameBytes);
  return {};
}

std::string check_tfrecord_footer(const std::byte* footer, std::uint32_t data_crc) {
  const auto stored = static_cast<std::uint32_t>(le(footer, 4));
  const std::uint32_t computed = tfrecord_mask(data_crc);
  if (stored != computed)
    return fmt::format("data CRC mismatch (stored masked crc32c {:08x}, computed {:08x})", stored,
                       computed);
  return {};
}

} // namespace dlsize::dataset
