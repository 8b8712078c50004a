// Unit tests for src/dataset/tfrecord_frame.hpp: TFRecord's masked CRC32C and the header and
// footer checks bench --verify makes, on a record built by hand with CRCs computed outside dlsize
// (tests/integration/foreign_dataset.py's table-driven CRC32C).
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include <catch2/catch.hpp>

#include "core/crc32c.hpp"
#include "dataset/tfrecord_frame.hpp"

namespace {

using namespace dlsize::dataset;
using Catch::Matchers::Contains;

// The record of the 5 bytes "hello": length 5, masked CRC 0x3e04b2ea of the length's 8 bytes,
// the data, masked CRC 0x191c1fbb of the data.
std::vector<std::byte> hello_record() {
  const unsigned char raw[] = {0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xea, 0xb2, 0x04,
                               0x3e, 'h',  'e',  'l',  'l',  'o',  0xbb, 0x1f, 0x1c, 0x19};
  std::vector<std::byte> out(sizeof raw);
  std::memcpy(out.data(), raw, sizeof raw);
  return out;
}

} // namespace

TEST_CASE("tfrecord_masked_crc gives TensorFlow's masked CRC32C", "[tfrecord]") {
  const auto r = hello_record();
  CHECK(tfrecord_masked_crc(r.data(), 8) == 0x3e04b2eau);
  CHECK(tfrecord_masked_crc("hello", 5) == 0x191c1fbbu);
  CHECK(tfrecord_mask(dlsize::crc32c(0, "hello", 5)) == 0x191c1fbbu);
}

TEST_CASE("a hand-built TFRecord record passes the header and footer checks", "[tfrecord]") {
  const auto r = hello_record();
  CHECK(check_tfrecord_header(r.data(), r.size()).empty());
  CHECK(check_tfrecord_footer(r.data() + 17, dlsize::crc32c(0, r.data() + 12, 5)).empty());
}

TEST_CASE("a TFRecord header with a flipped length byte fails its length CRC", "[tfrecord]") {
  auto r = hello_record();
  r[0] ^= std::byte{0x01};
  CHECK_THAT(check_tfrecord_header(r.data(), r.size()),
             Contains("length CRC mismatch") && Contains("stored masked crc32c 3e04b2ea"));
  r = hello_record();
  r[9] ^= std::byte{0x40}; // the stored CRC itself
  CHECK_THAT(check_tfrecord_header(r.data(), r.size()), Contains("length CRC mismatch"));
}

TEST_CASE("a TFRecord header whose length does not fill the indexed record is named",
          "[tfrecord]") {
  const auto r = hello_record();
  CHECK_THAT(check_tfrecord_header(r.data(), r.size() + 4),
             Contains("length field says 5 bytes") && Contains("holds 9"));
  CHECK_THAT(check_tfrecord_header(r.data(), 10), Contains("holds 0"));
}

TEST_CASE("a TFRecord footer that does not match the data's CRC is named", "[tfrecord]") {
  auto r = hello_record();
  r[14] ^= std::byte{0x02}; // a data byte
  CHECK_THAT(check_tfrecord_footer(r.data() + 17, dlsize::crc32c(0, r.data() + 12, 5)),
             Contains("data CRC mismatch") && Contains("stored masked crc32c 191c1fbb"));
}
