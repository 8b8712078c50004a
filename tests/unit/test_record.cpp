// Unit tests for src/dataset/record.hpp: the on-disk record header and payload.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <catch2/catch.hpp>

#include "core/crc32c.hpp"
#include "dataset/record.hpp"

namespace {

using namespace dlsize::dataset;

constexpr std::byte kCanary{0xA5};

} // namespace

TEST_CASE("make_record writes a header that decode_header reads back with the dataset id, "
          "index, payload length and payload checksum",
          "[record]") {
  const std::uint64_t id = 0x0123456789abcdefull;
  for (const std::uint64_t bytes :
       {std::uint64_t{64}, std::uint64_t{65}, std::uint64_t{1000}, std::uint64_t{114660}}) {
    std::vector<std::byte> buf(bytes);
    make_record(id, 4242, bytes, buf.data());
    const auto h = decode_header(buf.data());
    INFO("record bytes " << bytes);
    REQUIRE(h.has_value());
    CHECK(h->dataset_id == id);
    CHECK(h->index == 4242);
    CHECK(h->payload_bytes == bytes - kHeaderBytes);
    CHECK(h->payload_crc == dlsize::crc32c(0, buf.data() + kHeaderBytes, bytes - kHeaderBytes));
  }
}

TEST_CASE("encode_header then decode_header round trips every field, extremes included",
          "[record]") {
  std::byte buf[kHeaderBytes];
  for (const record_header in :
       {record_header{0, 0, 0, 0}, record_header{UINT64_MAX, UINT64_MAX, UINT32_MAX, UINT32_MAX},
        record_header{0x1122334455667788ull, 0x99aabbccddeeff00ull, 0x01020304u, 0xdeadbeefu}}) {
    encode_header(in, buf);
    const auto out = decode_header(buf);
    REQUIRE(out.has_value());
    CHECK(out->dataset_id == in.dataset_id);
    CHECK(out->index == in.index);
    CHECK(out->payload_bytes == in.payload_bytes);
    CHECK(out->payload_crc == in.payload_crc);
  }
}

TEST_CASE("the header begins with the little-endian magic 'DLSR', version 1 and header size 32",
          "[record]") {
  std::byte buf[kHeaderBytes];
  encode_header(record_header{1, 2, 3, 4}, buf);
  CHECK(static_cast<char>(buf[0]) == 'D');
  CHECK(static_cast<char>(buf[1]) == 'L');
  CHECK(static_cast<char>(buf[2]) == 'S');
  CHECK(static_cast<char>(buf[3]) == 'R');
  CHECK(std::to_integer<int>(buf[4]) == 1);
  CHECK(std::to_integer<int>(buf[5]) == 0);
  CHECK(std::to_integer<int>(buf[6]) == 32);
  CHECK(std::to_integer<int>(buf[7]) == 0);
  CHECK(std::to_integer<int>(buf[16]) == 2); // index, low byte first
}

TEST_CASE("decode_header rejects a bad magic, version or header size", "[record]") {
  std::byte good[kHeaderBytes];
  encode_header(record_header{7, 8, 100, 0x1234}, good);
  REQUIRE(decode_header(good).has_value());
  for (const std::size_t at : {std::size_t{0}, std::size_t{3}, std::size_t{4}, std::size_t{5},
                               std::size_t{6}, std::size_t{7}}) {
    std::byte bad[kHeaderBytes];
    std::copy(std::begin(good), std::end(good), std::begin(bad));
    bad[at] ^= std::byte{0x01};
    INFO("byte " << at << " altered");
    CHECK_FALSE(decode_header(bad).has_value());
  }
  const std::byte zeros[kHeaderBytes]{};
  CHECK_FALSE(decode_header(zeros).has_value());
}

TEST_CASE("make_record bytes are deterministic for a dataset id and index and differ otherwise",
          "[record]") {
  const std::uint64_t bytes = 4096;
  std::vector<std::byte> a(bytes), b(bytes), other_index(bytes), other_id(bytes);
  make_record(99, 5, bytes, a.data());
  make_record(99, 5, bytes, b.data());
  make_record(99, 6, bytes, other_index.data());
  make_record(100, 5, bytes, other_id.data());
  CHECK(a == b);
  const auto payload_equal = [&](const std::vector<std::byte>& x, const std::vector<std::byte>& y) {
    return std::equal(x.begin() + kHeaderBytes, x.end(), y.begin() + kHeaderBytes);
  };
  CHECK_FALSE(payload_equal(a, other_index));
  CHECK_FALSE(payload_equal(a, other_id));
  CHECK(decode_header(a.data())->payload_crc != decode_header(other_index.data())->payload_crc);
}

TEST_CASE("fill_payload is not constant: its bytes look random", "[record]") {
  std::vector<std::byte> p(65536);
  fill_payload(1, 2, p.data(), p.size());
  std::size_t counts[256]{};
  for (auto x : p)
    ++counts[std::to_integer<std::size_t>(x)];
  // 256 values expected ~256 times each; any value missing or hugely frequent means no mixing.
  for (std::size_t v = 0; v < 256; ++v) {
    INFO("byte value " << v);
    CHECK(counts[v] > 128);
    CHECK(counts[v] < 512);
  }
}

TEST_CASE("fill_payload and make_record write exactly the bytes asked for, whatever the length",
          "[record]") {
  for (std::size_t len = 0; len <= 40; ++len) {
    std::vector<std::byte> buf(len + 16, kCanary);
    fill_payload(3, 4, buf.data(), len);
    INFO("payload length " << len);
    CHECK(std::all_of(buf.begin() + static_cast<std::ptrdiff_t>(len), buf.end(),
                      [](std::byte x) { return x == kCanary; }));
  }
  for (std::uint64_t rec = 64; rec <= 80; ++rec) {
    std::vector<std::byte> buf(static_cast<std::size_t>(rec) + 16, kCanary);
    make_record(3, 4, rec, buf.data());
    INFO("record bytes " << rec);
    CHECK(std::all_of(buf.begin() + static_cast<std::ptrdiff_t>(rec), buf.end(),
                      [](std::byte x) { return x == kCanary; }));
  }
}
