// Parquet: "PAR1" at both ends, and a footer (FileMetaData in Thrift's compact protocol) whose
// row groups give each group's byte range. Only the fields needed are read; every other field is
// skipped by its type, with the nesting bounded, so a hostile footer ends as a named problem.
#include <algorithm>
#include <cstring>
#include <string>

#include <fmt/format.h>

#include "dataset/format_probe.hpp"

namespace dlsize::dataset {
namespace {

constexpr std::uint64_t kMaxFooterBytes = 64ull << 20;

struct bad_footer {
  std::string what;
};

class compact_reader {
public:
  explicit compact_reader(std::string_view b) : m_b(b) {}
  unsigned byte() {
    if (m_p >= m_b.size())
      throw bad_footer{"footer ends inside a value"};
    return static_cast<unsigned char>(m_b[m_p++]);
  }
  std::uint64_t varint() {
    std::uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
      const unsigned b = byte();
      v |= std::uint64_t{b & 0x7f} << shift;
      if (!(b & 0x80))
        return v;
    }
    throw bad_footer{"varint longer than 10 bytes"};
  }
  std::int64_t zigzag() {
    const std::uint64_t v = varint();
    return static_cast<std::int64_t>(v >> 1) ^ -static_cast<std::int64_t>(v & 1);
  }
  // The next field's (id, type), or type 0 at the struct's end.
  std::pair<int, unsigned> field(int& last) {
    const unsigned b = byte();
    const unsigned type = b & 0x0f;
    if (type == 0)
      return {0, 0};
    const unsigned delta = b >> 4;
    last = delta ? last + static_cast<int>(delta) : static_cast<int>(zigzag());
    return {last, type};
  }
  // A list's (size, element type).
  std::pair<std::uint64_t, unsigned> list() {
    const unsigned b = byte();
    std::uint64_t n = b >> 4;
    if (n == 15)
      n = varint();
    if (n > m_b.size()) // each element takes at least a byte
      throw bad_footer{"list longer than the footer"};
    return {n, b & 0x0f};
  }
  void skip(unsigned type, int depth = 0) {
    if (depth > 32)
      throw bad_footer{"nesting deeper than 32"};
    switch (type) {
    case 1:
    case 2:
      return; // booleans in a field header
    case 3:
      byte();
      return;
    case 4:
    case 5:
    case 6:
      varint();
      return;
    case 7:
      advance(8);
      return;
    case 8:
      advance(varint());
      return;
    case 9:
    case 10: {
      auto [n, t] = list();
      for (std::uint64_t i = 0; i < n; ++i)
        t == 1 || t == 2 ? (void)byte() : skip(t, depth + 1);
      return;
    }
    case 11: {
      const std::uint64_t n = varint();
      if (n == 0)
        return;
      const unsigned kv = byte();
      for (std::uint64_t i = 0; i < n; ++i) {
        skip(kv >> 4, depth + 1);
        skip(kv & 0x0f, depth + 1);
      }
      return;
    }
    case 12: {
      int last = 0;
      for (auto f = field(last); f.second != 0; f = field(last))
        skip(f.second, depth + 1);
      return;
    }
    default:
      throw bad_footer{fmt::format("unknown Thrift type {}", type)};
    }
  }

private:
  void advance(std::uint64_t n) {
    if (n > m_b.size() - m_p)
      throw bad_footer{"footer ends inside a value"};
    m_p += n;
  }
  std::string_view m_b;
  std::size_t m_p = 0;
};

struct column_range {
  std::int64_t data = -1, dictionary = -1, compressed = 0;
};

column_range read_column_chunk(compact_reader& in) {
  column_range c;
  int last = 0;
  for (auto f = in.field(last); f.second != 0; f = in.field(last)) {
    if (f.first != 3 || f.second != 12) {
      in.skip(f.second);
      continue;
    }
    int inner = 0; // ColumnMetaData
    for (auto g = in.field(inner); g.second != 0; g = in.field(inner)) {
      if (g.second == 6 && (g.first == 7 || g.first == 9 || g.first == 11)) {
        const std::int64_t v = in.zigzag();
        (g.first == 7 ? c.compressed : g.first == 9 ? c.data : c.dictionary) = v;
      } else {
        in.skip(g.second);
      }
    }
  }
  return c;
}

struct group_range {
  std::int64_t start = -1, bytes = 0, rows = 0;
};

group_range read_row_group(compact_reader& in) {
  group_range g;
  std::int64_t first = INT64_MAX, sum = 0;
  int last = 0;
  for (auto f = in.field(last); f.second != 0; f = in.field(last)) {
    if (f.first == 1 && f.second == 9) {
      auto [n, t] = in.list();
      for (std::uint64_t i = 0; i < n; ++i) {
        if (t != 12)
          throw bad_footer{"row group columns are not structs"};
        const column_range c = read_column_chunk(in);
        const std::int64_t s = c.dictionary > 0 ? std::min(c.dictionary, c.data) : c.data;
        if (s < 0 || c.compressed < 0)
          throw bad_footer{"column chunk without data page offset or size"};
        first = std::min(first, s);
        sum += c.compressed;
      }
    } else if (f.first == 3 && f.second == 6) {
      g.rows = in.zigzag();
    } else {
      in.skip(f.second);
    }
  }
  if (first != INT64_MAX) {
    g.start = first;
    g.bytes = sum;
  }
  return g;
}

} // namespace

bool probe_parquet(const byte_source& src, probe_result& r) {
  unsigned char h[8];
  if (src.size() < 12 || !src.read(0, h, 4) || std::memcmp(h, "PAR1", 4) != 0 ||
      !src.read(src.size() - 8, h, 8) || std::memcmp(h + 4, "PAR1", 4) != 0)
    return false;
  r.format = "parquet";
  const std::uint64_t len = little_endian(h, 4);
  if (len > src.size() - 12 || len > kMaxFooterBytes) {
    r.problem = fmt::format("footer of {} bytes larger than the file or the 64 MiB limit", len);
    return true;
  }
  const std::uint64_t footer_at = src.size() - 8 - len;
  std::string footer(len, '\0');
  if (!src.read(footer_at, footer.data(), len)) {
    r.problem = "footer unreadable";
    return true;
  }
  std::vector<sample_range> groups;
  std::int64_t rows = 0;
  try {
    compact_reader in(footer);
    int last = 0;
    for (auto f = in.field(last); f.second != 0; f = in.field(last)) {
      if (f.first != 4 || f.second != 9) {
        if (f.first == 3 && f.second == 6)
          rows = in.zigzag();
        else
          in.skip(f.second);
        continue;
      }
      auto [n, t] = in.list();
      for (std::uint64_t i = 0; i < n; ++i) {
        if (t != 12)
          throw bad_footer{"row groups are not structs"};
        const group_range g = read_row_group(in);
        if (g.start < 4 || g.bytes <= 0 || static_cast<std::uint64_t>(g.start) > footer_at ||
            static_cast<std::uint64_t>(g.bytes) > footer_at - static_cast<std::uint64_t>(g.start))
          throw bad_footer{fmt::format("row group {} lies outside the data ({} bytes at {})", i,
                                       g.bytes, g.start)};
        if (groups.size() >= kMaxProbeRecords)
          throw bad_footer{fmt::format("more than {} row groups", kMaxProbeRecords)};
        groups.push_back(
            {static_cast<std::uint64_t>(g.start), static_cast<std::uint64_t>(g.bytes)});
      }
    }
  } catch (const bad_footer& e) {
    r.problem = "footer: " + e.what;
    return true;
  }
  r.details = format_details{.rows = rows, .row_groups = groups.size()};
  r.records = std::move(groups);
  return true;
}

} // namespace dlsize::dataset
