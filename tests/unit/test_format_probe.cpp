// Unit tests for src/dataset/format_probe.hpp: formats recognised by content, samples found in
// them, and hostile or truncated headers answered without a crash.
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "dataset/format_probe.hpp"

namespace {

// A probe's details as an index line writes them.
nlohmann::json details_json(const dataset::probe_result& r) {
  return r.details ? dataset::to_json(*r.details) : nlohmann::json();
}

using namespace dlsize::dataset;

void put_le(std::string& s, std::uint64_t v, int n) {
  for (int i = 0; i < n; ++i)
    s.push_back(static_cast<char>((v >> (8 * i)) & 0xff));
}

std::string tfrecord(const std::vector<std::size_t>& sizes) {
  std::string out;
  for (std::size_t n : sizes) {
    std::string len;
    put_le(len, n, 8);
    const std::string data(n, 'x');
    out += len;
    put_le(out, tfrecord_masked_crc(len.data(), 8), 4);
    out += data;
    put_le(out, tfrecord_masked_crc(data.data(), n), 4);
  }
  return out;
}

std::string npy(const std::string& dict) {
  std::string h = dict;
  while ((10 + h.size() + 1) % 64)
    h += ' ';
  h += '\n';
  std::string out("\x93NUMPY\x01\x00", 8);
  put_le(out, h.size(), 2);
  return out + h + std::string(64, '\0');
}

std::string jpeg(unsigned w, unsigned h) {
  std::string s("\xff\xd8\xff\xe0\x00\x04xx\xff\xc0\x00\x11\x08", 13);
  s += {static_cast<char>(h >> 8), static_cast<char>(h & 0xff), static_cast<char>(w >> 8),
        static_cast<char>(w & 0xff), 3};
  return s + std::string(12, '\x01') + "\xff\xd9";
}

// Thrift compact: a field header with a small delta, and a zigzag varint.
void varint(std::string& s, std::uint64_t v) {
  do {
    const auto b = static_cast<char>(v & 0x7f);
    v >>= 7;
    s.push_back(static_cast<char>(b | (v ? 0x80 : 0)));
  } while (v);
}
void i64_field(std::string& s, int delta, std::int64_t v) {
  s.push_back(static_cast<char>((delta << 4) | 6));
  varint(s, static_cast<std::uint64_t>((v << 1) ^ (v >> 63)));
}

// PAR1, groups of the given sizes, a footer naming them (one column each), PAR1.
std::string parquet(const std::vector<std::int64_t>& groups) {
  std::string body = "PAR1";
  std::string footer;
  footer.push_back(0x49); // field 4 (delta 4), a list
  footer.push_back(static_cast<char>((groups.size() << 4) | 12));
  for (auto n : groups) {
    const auto off = static_cast<std::int64_t>(body.size());
    body += std::string(static_cast<std::size_t>(n), 'd');
    footer.push_back(0x19); // RowGroup field 1: a list of one ColumnChunk
    footer.push_back(0x1c);
    footer.push_back(0x3c); // ColumnChunk field 3: ColumnMetaData
    i64_field(footer, 7, n);
    i64_field(footer, 2, off);
    footer.push_back(0); // ColumnMetaData ends
    footer.push_back(0); // ColumnChunk ends
    footer.push_back(0); // RowGroup ends
  }
  footer.push_back(0);
  std::string out = body + footer;
  put_le(out, footer.size(), 4);
  return out + "PAR1";
}

std::string tar_header(const std::string& name, std::uint64_t size) {
  std::string h(512, '\0');
  h.replace(0, name.size(), name);
  h.replace(100, 7, "0000644");
  char num[16];
  std::snprintf(num, sizeof num, "%011llo", static_cast<unsigned long long>(size));
  h.replace(124, 11, num);
  h[156] = '0';
  h.replace(257, 6, std::string("ustar\0", 6));
  h.replace(263, 2, "00");
  unsigned sum = 0;
  for (int i = 0; i < 512; ++i)
    sum += (i >= 148 && i < 156) ? ' ' : static_cast<unsigned char>(h[static_cast<std::size_t>(i)]);
  std::snprintf(num, sizeof num, "%06o", sum);
  h.replace(148, 7, std::string(num, 6) + '\0');
  return h;
}

std::string tar(const std::vector<std::uint64_t>& sizes) {
  std::string out;
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    out += tar_header("m" + std::to_string(i) + ".jpg", sizes[i]);
    out += std::string((sizes[i] + 511) / 512 * 512, 'z');
  }
  return out + std::string(1024, '\0');
}

// A stored zip of the members given.
std::string zip(const std::vector<std::pair<std::string, std::string>>& members) {
  std::string out, dir;
  for (const auto& [name, data] : members) {
    const auto local = out.size();
    out += std::string("PK\x03\x04", 4) + std::string(22, '\0');
    put_le(out, name.size(), 2);
    put_le(out, 0, 2);
    out += name + data;
    std::string e = std::string("PK\x01\x02", 4) + std::string(16, '\0');
    put_le(e, data.size(), 4);
    put_le(e, data.size(), 4);
    put_le(e, name.size(), 2);
    e += std::string(12, '\0');
    put_le(e, local, 4);
    dir += e + name;
  }
  const auto at = out.size();
  out += dir + std::string("PK\x05\x06", 4) + std::string(4, '\0');
  put_le(out, members.size(), 2);
  put_le(out, members.size(), 2);
  put_le(out, dir.size(), 4);
  put_le(out, at, 4);
  put_le(out, 0, 2);
  return out;
}

probe_result probe(const std::string& bytes, const std::string& name = "f") {
  return probe_format(memory_source(bytes), name);
}

// Every truncation and many random corruptions: an answer, never a crash, and every record
// inside the bytes given.
void check_hostile(const std::string& good) {
  std::mt19937_64 rng(16);
  auto check = [](const std::string& b) {
    const probe_result r = probe(b);
    for (const auto& s : r.records) {
      REQUIRE(s.offset <= b.size());
      REQUIRE(s.length <= b.size() - s.offset);
    }
  };
  for (std::size_t n = 0; n <= good.size(); n += 1 + good.size() / 300)
    check(good.substr(0, n));
  for (int i = 0; i < 300; ++i) {
    std::string b = good;
    for (int k = 0; k < 3; ++k)
      b[rng() % b.size()] = static_cast<char>(rng());
    check(b);
  }
}

} // namespace

TEST_CASE("probe finds every TFRecord record from its length headers", "[probe]") {
  const auto r = probe(tfrecord({10, 300, 1}));
  CHECK(r.format == "tfrecord");
  CHECK(r.problem.empty());
  REQUIRE(r.records.size() == 3);
  CHECK(r.records[0] == sample_range{0, 26});
  CHECK(r.records[1] == sample_range{26, 316});
  CHECK(r.records[2] == sample_range{342, 17});
}

TEST_CASE("probe names a truncated or corrupted TFRecord and keeps it one sample", "[probe]") {
  std::string b = tfrecord({100, 100});
  auto r = probe(b.substr(0, b.size() - 5));
  CHECK(r.format == "tfrecord");
  CHECK(r.records.empty());
  CHECK_THAT(r.problem, Catch::Contains("runs past the end"));
  b[116] ^= 1; // the second record's length
  r = probe(b);
  CHECK_THAT(r.problem, Catch::Contains("bad length CRC at offset 116"));
}

TEST_CASE("probe skips a GZIP-compressed TFRecord with the reason", "[probe]") {
  const std::string gz("\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03rest", 14);
  CHECK_THAT(probe(gz, "train.tfrecord").skip, Catch::Contains("GZIP"));
  CHECK(probe(gz, "notes.gz").format == "gzip");
  CHECK(probe(gz, "notes.gz").skip.empty());
}

TEST_CASE("probe reads an NPY header's dtype and shape", "[probe]") {
  const auto r = probe(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (16, 8, 2), }"));
  CHECK(r.format == "npy");
  CHECK(details_json(r)["dtype"] == "<f4");
  CHECK(details_json(r)["shape"] == nlohmann::json::array({16, 8, 2}));
  const auto one = probe(npy("{'descr': '|u1', 'fortran_order': True, 'shape': (5,), }"));
  CHECK(details_json(one)["shape"] == nlohmann::json::array({5}));
  CHECK(details_json(one)["fortran_order"] == true);
  std::string huge = npy("{}");
  huge[8] = huge[9] = '\xff';
  CHECK_THAT(probe(huge).problem, Catch::Contains("64 KiB"));
}

TEST_CASE("probe reads JPEG and PNG dimensions from their headers", "[probe]") {
  const auto j = probe(jpeg(640, 480));
  CHECK(j.format == "jpeg");
  CHECK(details_json(j)["width"] == 640);
  CHECK(details_json(j)["height"] == 480);
  std::string png("\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR\x00\x00\x01\x00\x00\x00\x00\x80\x08\x02",
                  26);
  const auto p = probe(png);
  CHECK(p.format == "png");
  CHECK(details_json(p)["width"] == 256);
  CHECK(details_json(p)["height"] == 128);
  CHECK(probe(std::string("\xff\xd8\xff\xda", 4)).problem.size() > 0);
}

TEST_CASE("probe takes Parquet row groups from the footer", "[probe]") {
  const auto r = probe(parquet({100, 250}));
  CHECK(r.format == "parquet");
  CHECK(r.problem.empty());
  REQUIRE(r.records.size() == 2);
  CHECK(r.records[0] == sample_range{4, 100});
  CHECK(r.records[1] == sample_range{104, 250});
}

TEST_CASE("probe takes every member of a tar shard as a sample", "[probe]") {
  const auto r = probe(tar({700, 2, 0}));
  CHECK(r.format == "tar");
  REQUIRE(r.records.size() == 3);
  CHECK(r.records[0] == sample_range{0, 512 + 1024});
  CHECK(r.records[1] == sample_range{1536, 1024});
  CHECK(r.records[2] == sample_range{2560, 512});
}

TEST_CASE("probe lists an NPZ's members with their shapes", "[probe]") {
  const auto r =
      probe(zip({{"a.npy", npy("{'descr': '<i8', 'fortran_order': False, 'shape': (3, 4), }")},
                 {"b.npy", npy("{'descr': '<f2', 'fortran_order': False, 'shape': (), }")}}));
  CHECK(r.format == "npz");
  CHECK(details_json(r)["members"] == 2);
  CHECK(details_json(r)["listed"][0]["name"] == "a.npy");
  CHECK(details_json(r)["listed"][0]["shape"] == nlohmann::json::array({3, 4}));
  CHECK(probe(zip({{"x.txt", "hello"}})).format == "zip");
}

TEST_CASE("probe answers truncated and corrupted headers of every format without a crash",
          "[probe]") {
  check_hostile(tfrecord({40, 3, 90}));
  check_hostile(npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 2), }"));
  check_hostile(jpeg(10, 20));
  check_hostile(parquet({30, 40, 50}));
  check_hostile(tar({600, 10}));
  check_hostile(zip({{"a.npy", npy("{'descr': '<f4', 'fortran_order': False, 'shape': (1,), }")}}));
  CHECK(probe("").format == "other");
}
