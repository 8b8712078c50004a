#include "dataset/format_probe.hpp"

#include <array>
#include <cstring>

#include <fmt/format.h>

namespace dlsize::dataset {
namespace {

bool tfrecord_like_name(std::string_view name) {
  return name.find("tfrecord") != std::string_view::npos ||
         name.find(".tfr") != std::string_view::npos;
}

// A value of a Python dict literal in an NPY header: 'key': VALUE up to the next ',' at depth 0.
std::string_view dict_value(std::string_view h, std::string_view key) {
  const std::string quoted = fmt::format("'{}'", key);
  auto k = h.find(quoted);
  if (k == std::string_view::npos)
    return {};
  auto c = h.find(':', k + quoted.size());
  if (c == std::string_view::npos)
    return {};
  std::size_t b = c + 1;
  while (b < h.size() && h[b] == ' ')
    ++b;
  std::size_t e = b;
  int depth = 0;
  while (e < h.size() && !(depth == 0 && (h[e] == ',' || h[e] == '}'))) {
    if (h[e] == '(')
      ++depth;
    else if (h[e] == ')')
      --depth;
    ++e;
  }
  return h.substr(b, e - b);
}

} // namespace

bool probe_tfrecord(const byte_source& src, probe_result& r) {
  unsigned char h[kTfrecordHeaderBytes];
  if (src.size() < kTfrecordFrameBytes || !src.read(0, h, kTfrecordHeaderBytes) ||
      tfrecord_masked_crc(h, 8) != little_endian(h + 8, 4))
    return false;
  r.format = "tfrecord";
  std::uint64_t off = 0;
  std::vector<sample_range> recs;
  while (off < src.size()) {
    if (recs.size() >= kMaxProbeRecords) {
      r.problem = fmt::format("more than {} records", kMaxProbeRecords);
      return true;
    }
    if (!src.read(off, h, kTfrecordHeaderBytes)) {
      r.problem = fmt::format("truncated record header at offset {}", off);
      return true;
    }
    if (tfrecord_masked_crc(h, 8) != little_endian(h + 8, 4)) {
      r.problem = fmt::format("bad length CRC at offset {}", off);
      return true;
    }
    const std::uint64_t len = little_endian(h, 8);
    if (len > src.size() - off - 12 || src.size() - off - 12 - len < 4) {
      r.problem = fmt::format("record at offset {} runs past the end ({} bytes of data)", off, len);
      return true;
    }
    recs.push_back({off, kTfrecordFrameBytes + len});
    off += kTfrecordFrameBytes + len;
  }
  r.records = std::move(recs);
  r.details = format_details{.records = r.records.size()};
  return true;
}

bool probe_npy(const byte_source& src, probe_result& r) {
  unsigned char h[12];
  if (!src.read(0, h, 10) || std::memcmp(h, "\x93NUMPY", 6) != 0)
    return false;
  r.format = "npy";
  const int major = h[6];
  std::uint64_t hlen = 0, start = 10;
  if (major == 1) {
    hlen = little_endian(h + 8, 2);
  } else if ((major == 2 || major == 3) && src.read(0, h, 12)) {
    hlen = little_endian(h + 8, 4);
    start = 12;
  } else {
    r.problem = fmt::format("NPY version {} is not known", major);
    return true;
  }
  if (hlen > 65536 || hlen > src.size() - start) {
    r.problem = fmt::format("NPY header of {} bytes runs past the end or the 64 KiB limit", hlen);
    return true;
  }
  std::string text(hlen, '\0');
  if (!src.read(start, text.data(), hlen)) {
    r.problem = "NPY header unreadable";
    return true;
  }
  const std::string_view descr = dict_value(text, "descr");
  const std::string_view shape = dict_value(text, "shape");
  if (descr.size() < 2 || shape.size() < 2 || shape.front() != '(' || shape.back() != ')') {
    r.problem = "NPY header without descr or shape";
    return true;
  }
  nlohmann::json dims = nlohmann::json::array();
  std::uint64_t v = 0;
  bool digits = false;
  for (char c : shape.substr(1)) {
    if (c >= '0' && c <= '9' && v < (UINT64_MAX - 9) / 10) {
      v = v * 10 + static_cast<std::uint64_t>(c - '0');
      digits = true;
    } else if ((c == ',' || c == ')') && digits) {
      dims.push_back(v);
      v = 0;
      digits = false;
    }
  }
  r.details = format_details{.dtype = std::string(descr.substr(1, descr.size() - 2)),
                             .shape = dims,
                             .fortran_order = dict_value(text, "fortran_order") == "True",
                             .data_offset = start + hlen};
  return true;
}

bool probe_jpeg(const byte_source& src, probe_result& r) {
  unsigned char h[10];
  if (!src.read(0, h, 3) || h[0] != 0xFF || h[1] != 0xD8 || h[2] != 0xFF)
    return false;
  r.format = "jpeg";
  std::uint64_t off = 2;
  for (int segments = 0; segments < 4096; ++segments) {
    if (!src.read(off, h, 4) || h[0] != 0xFF)
      break;
    const unsigned m = h[1];
    if (m == 0xFF) { // fill byte
      ++off;
      continue;
    }
    if (m == 0xD8 || m == 0x01 || (m >= 0xD0 && m <= 0xD7)) {
      off += 2;
      continue;
    }
    const std::uint32_t len = big_endian(h + 2, 2);
    if (len < 2 || m == 0xDA || m == 0xD9)
      break;
    const bool sof = m >= 0xC0 && m <= 0xCF && m != 0xC4 && m != 0xC8 && m != 0xCC;
    if (sof) {
      if (!src.read(off + 4, h, 6))
        break;
      r.details = format_details{
          .width = big_endian(h + 3, 2), .height = big_endian(h + 1, 2), .components = h[5]};
      return true;
    }
    off += 2 + len;
  }
  r.problem = "no frame header (SOF) before the image data: dimensions unknown";
  return true;
}

bool probe_png(const byte_source& src, probe_result& r) {
  unsigned char h[26];
  if (!src.read(0, h, 8) || std::memcmp(h, "\x89PNG\r\n\x1a\n", 8) != 0)
    return false;
  r.format = "png";
  if (!src.read(8, h, 18) || std::memcmp(h + 4, "IHDR", 4) != 0) {
    r.problem = "no IHDR chunk after the signature";
    return true;
  }
  r.details = format_details{.width = big_endian(h + 8, 4),
                             .height = big_endian(h + 12, 4),
                             .bit_depth = h[16],
                             .color_type = h[17]};
  return true;
}

probe_result probe_format(const byte_source& src, std::string_view name) {
  probe_result r;
  if (probe_tfrecord(src, r) || probe_npy(src, r) || probe_npz(src, r) || probe_jpeg(src, r) ||
      probe_png(src, r) || probe_parquet(src, r) || probe_tar(src, r))
    return r;
  unsigned char h[2];
  if (!src.read(0, h, 2))
    return r;
  const bool gzip = h[0] == 0x1f && h[1] == 0x8b;
  const bool zlib = h[0] == 0x78 && (h[0] * 256u + h[1]) % 31 == 0;
  if ((gzip || zlib) && tfrecord_like_name(name)) {
    r.format = "tfrecord";
    r.skip = fmt::format("{}-compressed TFRecord: its records cannot be located without "
                         "decompressing the whole file",
                         gzip ? "GZIP" : "ZLIB");
  } else if (gzip) {
    r.format = "gzip";
  }
  return r;
}

} // namespace dlsize::dataset
