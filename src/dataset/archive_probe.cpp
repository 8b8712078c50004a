// The probes of container formats: NPZ (a zip of .npy members) and WebDataset tar shards.
#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "dataset/format_probe.hpp"

namespace dlsize::dataset {
namespace {

constexpr std::uint64_t kMaxListedMembers = 1000;

struct zip_directory {
  std::uint64_t entries = 0, offset = 0, size = 0;
};

// The central directory's place, from the end record (zip64's when the classic one overflows).
bool find_zip_directory(const byte_source& src, zip_directory& d, std::string& problem) {
  const std::uint64_t tail = std::min<std::uint64_t>(src.size(), 22 + 65535);
  std::string buf(tail, '\0');
  if (tail < 22 || !src.read(src.size() - tail, buf.data(), tail))
    return false;
  const auto at = buf.rfind("PK\x05\x06");
  if (at == std::string::npos || buf.size() - at < 22)
    return false;
  const auto* e = reinterpret_cast<const unsigned char*>(buf.data() + at);
  d.entries = little_endian(e + 10, 2);
  d.size = little_endian(e + 12, 4);
  d.offset = little_endian(e + 16, 4);
  if (d.entries == 0xFFFF || d.size == 0xFFFFFFFF || d.offset == 0xFFFFFFFF) {
    const std::uint64_t end_at = src.size() - tail + at;
    unsigned char loc[20], z[56];
    if (end_at < 20 || !src.read(end_at - 20, loc, 20) || std::memcmp(loc, "PK\x06\x07", 4) != 0 ||
        !src.read(little_endian(loc + 8, 8), z, 56) || std::memcmp(z, "PK\x06\x06", 4) != 0) {
      problem = "zip64 end record missing or damaged";
      return true;
    }
    d.entries = little_endian(z + 32, 8);
    d.size = little_endian(z + 40, 8);
    d.offset = little_endian(z + 48, 8);
  }
  if (d.offset > src.size() || d.size > src.size() - d.offset)
    problem = "central directory runs past the end";
  return true;
}

// One central directory entry at off; false at a damaged entry.
struct zip_member {
  std::string name;
  std::uint64_t bytes = 0, stored_bytes = 0, local = 0;
  unsigned method = 0;
  std::uint64_t entry_size = 0;
};

bool read_zip_member(const byte_source& src, std::uint64_t off, zip_member& m) {
  unsigned char h[46];
  if (!src.read(off, h, 46) || std::memcmp(h, "PK\x01\x02", 4) != 0)
    return false;
  m.method = static_cast<unsigned>(little_endian(h + 10, 2));
  m.stored_bytes = little_endian(h + 20, 4);
  m.bytes = little_endian(h + 24, 4);
  m.local = little_endian(h + 42, 4);
  const std::uint64_t n = little_endian(h + 28, 2), x = little_endian(h + 30, 2),
                      c = little_endian(h + 32, 2);
  m.name.assign(n, '\0');
  std::string extra(x, '\0');
  if (!src.read(off + 46, m.name.data(), n) || !src.read(off + 46 + n, extra.data(), x))
    return false;
  // zip64 sizes and offset, in this order, for the fields that overflowed.
  for (std::size_t p = 0; p + 4 <= extra.size();) {
    const auto* e = reinterpret_cast<const unsigned char*>(extra.data() + p);
    const std::size_t len = little_endian(e + 2, 2);
    if (little_endian(e, 2) == 1) {
      std::size_t q = 4;
      for (std::uint64_t* f : {&m.bytes, &m.stored_bytes, &m.local})
        if (*f == 0xFFFFFFFF && q + 8 <= 4 + len && p + q + 8 <= extra.size()) {
          *f = little_endian(e + q, 8);
          q += 8;
        }
    }
    p += 4 + len;
  }
  m.entry_size = 46 + n + x + c;
  return true;
}

// The shape and dtype of a stored (uncompressed) .npy member, from its own header.
void describe_npy_member(const byte_source& src, const zip_member& m, archive_member& out) {
  unsigned char h[30];
  if (m.method != 0 || !src.read(m.local, h, 30) || std::memcmp(h, "PK\x03\x04", 4) != 0)
    return;
  const std::uint64_t data = m.local + 30 + little_endian(h + 26, 2) + little_endian(h + 28, 2);
  if (data > src.size() || m.bytes > src.size() - data)
    return;
  const window_source member(src, data, m.bytes);
  probe_result r;
  if (probe_npy(member, r) && r.problem.empty() && r.details) {
    out.dtype = r.details->dtype;
    out.shape = r.details->shape;
  }
}

} // namespace

bool probe_npz(const byte_source& src, probe_result& r) {
  unsigned char sig[4];
  if (!src.read(0, sig, 4) || std::memcmp(sig, "PK\x03\x04", 4) != 0)
    return false;
  zip_directory d;
  std::string problem;
  if (!find_zip_directory(src, d, problem))
    return false;
  r.format = "zip";
  if (!problem.empty()) {
    r.problem = problem;
    return true;
  }
  std::vector<archive_member> members;
  bool all_npy = d.entries > 0;
  std::uint64_t off = d.offset;
  for (std::uint64_t i = 0; i < d.entries; ++i) {
    zip_member m;
    if (i >= kMaxProbeRecords || !read_zip_member(src, off, m)) {
      r.problem =
          fmt::format("central directory entry {} of {} damaged or past the limit", i, d.entries);
      return true;
    }
    off += m.entry_size;
    const bool npy = m.name.size() > 4 && m.name.compare(m.name.size() - 4, 4, ".npy") == 0;
    all_npy = all_npy && npy;
    if (members.size() < kMaxListedMembers) {
      archive_member j{.name = m.name, .bytes = m.bytes, .compressed = m.method != 0};
      if (npy)
        describe_npy_member(src, m, j);
      members.push_back(std::move(j));
    }
  }
  if (all_npy)
    r.format = "npz";
  r.details = format_details{.members = d.entries, .listed = std::move(members)};
  return true;
}

namespace {

// A tar number: octal text, or base-256 when the top bit of the first byte is set.
bool tar_number(const unsigned char* p, std::size_t n, std::uint64_t& v) {
  v = 0;
  if (p[0] & 0x80) {
    for (std::size_t i = 1; i < n; ++i) {
      if (v >> 55)
        return false;
      v = (v << 8) | p[i];
    }
    return true;
  }
  std::size_t i = 0;
  while (i < n && p[i] == ' ')
    ++i;
  for (; i < n && p[i] >= '0' && p[i] <= '7'; ++i)
    v = (v << 3) | static_cast<std::uint64_t>(p[i] - '0');
  return true;
}

bool tar_checksum_ok(const unsigned char* h) {
  std::uint64_t want = 0;
  if (!tar_number(h + 148, 8, want))
    return false;
  std::uint64_t sum = 0;
  for (int i = 0; i < 512; ++i)
    sum += (i >= 148 && i < 156) ? ' ' : h[i];
  return sum == want;
}

} // namespace

bool probe_tar(const byte_source& src, probe_result& r) {
  unsigned char h[512];
  if (src.size() < 1024 || !src.read(0, h, 512) || std::memcmp(h + 257, "ustar", 5) != 0 ||
      !tar_checksum_ok(h))
    return false;
  r.format = "tar";
  std::vector<sample_range> members;
  std::uint64_t off = 0, start = 0;
  for (;;) {
    if (!src.read(off, h, 512)) {
      r.problem = fmt::format("truncated header at offset {}", off);
      return true;
    }
    if (std::all_of(h, h + 512, [](unsigned char c) { return c == 0; }))
      break; // the end blocks
    std::uint64_t size = 0;
    if (!tar_checksum_ok(h) || !tar_number(h + 124, 12, size)) {
      r.problem = fmt::format("bad header checksum at offset {}", off);
      return true;
    }
    const std::uint64_t padded = (size + 511) / 512 * 512;
    if (size > src.size() || padded > src.size() - off - 512) {
      r.problem = fmt::format("member at offset {} runs past the end", off);
      return true;
    }
    const char type = static_cast<char>(h[156]);
    off += 512 + padded;
    // Extended headers (pax, GNU long names) belong to the member after them.
    if (type == 'x' || type == 'g' || type == 'L' || type == 'K')
      continue;
    if (type == '0' || type == '\0' || type == '7') {
      if (members.size() >= kMaxProbeRecords) {
        r.problem = fmt::format("more than {} members", kMaxProbeRecords);
        return true;
      }
      members.push_back({start, off - start});
    }
    start = off;
    if (off == src.size())
      break;
  }
  r.details = format_details{.members = members.size()};
  r.records = std::move(members);
  return true;
}

} // namespace dlsize::dataset
