#include "dataset/record.hpp"

#include <cstring>

#include "core/crc32c.hpp"
#include "core/rng.hpp"

namespace dlsize::dataset {
namespace {

template <typename T> void put(std::byte* p, T v) {
  std::memcpy(p, &v, sizeof v); // little-endian hosts only (x86-64, aarch64)
}
template <typename T> T get(const std::byte* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

} // namespace

void encode_header(const record_header& h, std::byte* out) {
  put<std::uint32_t>(out + 0, kRecordMagic);
  put<std::uint16_t>(out + 4, kRecordVersion);
  put<std::uint16_t>(out + 6, static_cast<std::uint16_t>(kHeaderBytes));
  put<std::uint64_t>(out + 8, h.dataset_id);
  put<std::uint64_t>(out + 16, h.index);
  put<std::uint32_t>(out + 24, h.payload_bytes);
  put<std::uint32_t>(out + 28, h.payload_crc);
}

std::optional<record_header> decode_header(const std::byte* in) {
  if (get<std::uint32_t>(in) != kRecordMagic || get<std::uint16_t>(in + 4) != kRecordVersion ||
      get<std::uint16_t>(in + 6) != kHeaderBytes)
    return std::nullopt;
  record_header h;
  h.dataset_id = get<std::uint64_t>(in + 8);
  h.index = get<std::uint64_t>(in + 16);
  h.payload_bytes = get<std::uint32_t>(in + 24);
  h.payload_crc = get<std::uint32_t>(in + 28);
  return h;
}

void fill_payload(std::uint64_t dataset_id, std::uint64_t index, std::byte* payload,
                  std::size_t bytes) {
  xoshiro256 rng(splitmix64(dataset_id) ^ splitmix64(index + 0x5851f42d4c957f2dull));
  std::size_t i = 0;
  for (; i + 8 <= bytes; i += 8)
    put<std::uint64_t>(payload + i, rng.next());
  if (i < bytes) {
    const std::uint64_t last = rng.next();
    std::memcpy(payload + i, &last, bytes - i);
  }
}

void make_record(std::uint64_t dataset_id, std::uint64_t index, std::uint64_t record_bytes,
                 std::byte* out) {
  const std::size_t payload = static_cast<std::size_t>(record_bytes - kHeaderBytes);
  fill_payload(dataset_id, index, out + kHeaderBytes, payload);
  record_header h;
  h.dataset_id = dataset_id;
  h.index = index;
  h.payload_bytes = static_cast<std::uint32_t>(payload);
  h.payload_crc = crc32c(0, out + kHeaderBytes, payload);
  encode_header(h, out);
}

} // namespace dlsize::dataset
