#include "core/crc32c.hpp"

#include <array>
#include <cstring>

#if defined(__x86_64__)
#include <nmmintrin.h>
#endif

namespace dlsize {
namespace {

constexpr std::uint32_t kPoly = 0x82f63b78u;

struct tables {
  std::array<std::array<std::uint32_t, 256>, 8> t{};
  tables() {
    for (std::uint32_t i = 0; i < 256; ++i) {
      std::uint32_t c = i;
      for (int k = 0; k < 8; ++k)
        c = (c & 1) ? (c >> 1) ^ kPoly : c >> 1;
      t[0][i] = c;
    }
    for (std::size_t i = 0; i < 256; ++i) {
      for (std::size_t k = 1; k < 8; ++k)
        t[k][i] = (t[k - 1][i] >> 8) ^ t[0][t[k - 1][i] & 0xff];
    }
  }
};

std::uint32_t crc32c_table(std::uint32_t crc, const unsigned char* p, std::size_t len) {
  static const tables tb;
  crc = ~crc;
  while (len >= 8) {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    v ^= crc;
    crc = tb.t[7][v & 0xff] ^ tb.t[6][(v >> 8) & 0xff] ^ tb.t[5][(v >> 16) & 0xff] ^
          tb.t[4][(v >> 24) & 0xff] ^ tb.t[3][(v >> 32) & 0xff] ^ tb.t[2][(v >> 40) & 0xff] ^
          tb.t[1][(v >> 48) & 0xff] ^ tb.t[0][v >> 56];
    p += 8;
    len -= 8;
  }
  while (len--)
    crc = (crc >> 8) ^ tb.t[0][(crc ^ *p++) & 0xff];
  return ~crc;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) std::uint32_t
crc32c_sse42(std::uint32_t crc, const unsigned char* p, std::size_t len) {
  std::uint64_t c = ~crc;
  while (len >= 8) {
    std::uint64_t v;
    std::memcpy(&v, p, 8);
    c = _mm_crc32_u64(c, v);
    p += 8;
    len -= 8;
  }
  auto c32 = static_cast<std::uint32_t>(c);
  while (len--)
    c32 = _mm_crc32_u8(c32, *p++);
  return ~c32;
}
#endif

bool detect_hardware() {
#if defined(__x86_64__)
  return __builtin_cpu_supports("sse4.2");
#else
  return false;
#endif
}

} // namespace

bool crc32c_hardware() {
  static const bool hw = detect_hardware();
  return hw;
}

std::uint32_t crc32c(std::uint32_t crc, const void* data, std::size_t len) {
  const auto* p = static_cast<const unsigned char*>(data);
#if defined(__x86_64__)
  if (crc32c_hardware())
    return crc32c_sse42(crc, p, len);
#endif
  return crc32c_table(crc, p, len);
}

} // namespace dlsize
