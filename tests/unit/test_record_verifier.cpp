// Unit tests for src/dataset/record_verifier.hpp: streaming checks of records in file order.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "dataset/layout.hpp"
#include "dataset/record.hpp"
#include "dataset/record_verifier.hpp"
#include "dataset/tfrecord_frame.hpp"

namespace {

using namespace dlsize::dataset;
using Catch::Matchers::Contains;

constexpr std::uint64_t kPerFile = 9;

dataset_layout make_layout() {
  dataset_params p;
  p.workload = "verifier-unit";
  p.layout = dlsize::config::file_layout::shards;
  p.format = "tfrecord";
  p.records_per_file = kPerFile;
  p.files = 3;
  p.sample_bytes_mean = 300; // sizes 64..600, so records straddle chunk boundaries
  p.sample_bytes_stdev = 100;
  p.seed = 77;
  return dataset_layout(std::filesystem::temp_directory_path() / "dlsize-unit-verifier", p);
}

// The bytes of file f, built in memory with make_record.
std::vector<std::byte> file_bytes(const dataset_layout& l, std::uint64_t f) {
  std::vector<std::byte> buf(static_cast<std::size_t>(l.file_bytes(f)));
  const std::uint64_t id = l.params().dataset_id();
  for (std::uint64_t r = l.first_record(f); r < l.first_record(f) + kPerFile; ++r)
    make_record(id, r, l.record_bytes(r), buf.data() + l.record_offset(r));
  return buf;
}

// Feeds data (which starts at file offset `base`) in chunks of `chunk` bytes.
void feed_chunks(record_verifier& v, std::uint64_t base, const std::vector<std::byte>& data,
                 std::size_t chunk) {
  for (std::size_t at = 0; at < data.size(); at += chunk) {
    const std::size_t n = std::min(chunk, data.size() - at);
    v.feed(base + at, data.data() + at, n);
  }
}

// Feeds data in random-sized chunks between 1 and max_chunk bytes.
void feed_random_chunks(record_verifier& v, std::uint64_t base, const std::vector<std::byte>& data,
                        std::size_t max_chunk, std::uint64_t seed) {
  std::mt19937_64 gen(seed);
  std::size_t at = 0;
  while (at < data.size()) {
    const std::size_t n =
        std::min<std::size_t>(1 + static_cast<std::size_t>(gen() % max_chunk), data.size() - at);
    v.feed(base + at, data.data() + at, n);
    at += n;
  }
}

// Verifies every record of file f in data with the given chunking; returns the verifier.
record_verifier verify_whole_file(const dataset_layout& l, std::uint64_t f,
                                  const std::vector<std::byte>& data, std::size_t chunk) {
  record_verifier v;
  v.reset(l, f, l.first_record(f), kPerFile);
  feed_chunks(v, 0, data, chunk);
  return v;
}

std::string record_label(std::uint64_t r) {
  return "record " + std::to_string(r) + " ";
}

// Feeds a whole file in several chunk sizes and expects exactly one mismatch, at record bad,
// whose message contains what.
void expect_one_mismatch(const dataset_layout& l, std::uint64_t f,
                         const std::vector<std::byte>& data, std::uint64_t bad,
                         const std::string& what) {
  for (const std::size_t chunk : {std::size_t{1}, std::size_t{100}, data.size()}) {
    const auto v = verify_whole_file(l, f, data, chunk);
    INFO("chunk " << chunk << ": " << v.first_error());
    CHECK(v.complete());
    CHECK(v.mismatches() == 1);
    CHECK_THAT(v.first_error(), Contains(record_label(bad)));
    CHECK_THAT(v.first_error(), Contains(what));
  }
}

} // namespace

TEST_CASE("record_verifier accepts a file's correct records fed in one piece", "[verifier]") {
  const auto l = make_layout();
  for (std::uint64_t f = 0; f < l.files(); ++f) {
    const auto data = file_bytes(l, f);
    const auto v = verify_whole_file(l, f, data, data.size());
    INFO("file " << f << ": " << v.first_error());
    CHECK(v.complete());
    CHECK(v.checked() == kPerFile);
    CHECK(v.mismatches() == 0);
    CHECK(v.first_error().empty());
  }
}

TEST_CASE("record_verifier accepts correct bytes fed in any chunk size, 1-byte chunks included",
          "[verifier]") {
  const auto l = make_layout();
  const auto data = file_bytes(l, 1);
  for (const std::size_t chunk :
       {std::size_t{1}, std::size_t{2}, std::size_t{3}, std::size_t{7}, std::size_t{31},
        std::size_t{32}, std::size_t{33}, std::size_t{64}, std::size_t{4096}}) {
    const auto v = verify_whole_file(l, 1, data, chunk);
    INFO("chunk " << chunk << ": " << v.first_error());
    CHECK(v.complete());
    CHECK(v.checked() == kPerFile);
    CHECK(v.mismatches() == 0);
  }
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    record_verifier v;
    v.reset(l, 1, l.first_record(1), kPerFile);
    feed_random_chunks(v, 0, data, 100, seed);
    INFO("random chunking seed " << seed << ": " << v.first_error());
    CHECK(v.complete());
    CHECK(v.mismatches() == 0);
  }
}

TEST_CASE("record_verifier skips alignment padding before the first record and after the last",
          "[verifier]") {
  const auto l = make_layout();
  const std::uint64_t f = 2;
  const auto data = file_bytes(l, f);
  // A range in the middle of the file whose first record does not start on a 64-byte boundary.
  std::uint64_t first = l.first_record(f) + 1;
  while (l.record_offset(first) % 64 == 0)
    ++first;
  const std::uint64_t count = 4;
  const std::uint64_t begin = l.record_offset(first);
  const std::uint64_t end = l.record_offset(first + count - 1) + l.record_bytes(first + count - 1);
  const std::uint64_t aligned_begin = begin / 64 * 64;
  const std::uint64_t aligned_end = std::min<std::uint64_t>((end + 63) / 64 * 64, data.size());
  REQUIRE(aligned_begin < begin);
  const std::vector<std::byte> read(data.begin() + static_cast<std::ptrdiff_t>(aligned_begin),
                                    data.begin() + static_cast<std::ptrdiff_t>(aligned_end));
  for (const std::size_t chunk :
       {std::size_t{1}, std::size_t{5}, std::size_t{64}, std::size_t{512}, read.size()}) {
    record_verifier v;
    v.reset(l, f, first, count);
    feed_chunks(v, aligned_begin, read, chunk);
    INFO("chunk " << chunk << ": " << v.first_error());
    CHECK(v.complete());
    CHECK(v.checked() == count);
    CHECK(v.mismatches() == 0);
  }
  // The padding before the record is skipped even when it is garbage.
  auto garbage = read;
  std::fill(garbage.begin(), garbage.begin() + static_cast<std::ptrdiff_t>(begin - aligned_begin),
            std::byte{0xFF});
  record_verifier v;
  v.reset(l, f, first, count);
  feed_random_chunks(v, aligned_begin, garbage, 50, 9);
  INFO(v.first_error());
  CHECK(v.complete());
  CHECK(v.mismatches() == 0);
}

TEST_CASE("record_verifier detects a flipped payload byte and names the record in first_error",
          "[verifier]") {
  const auto l = make_layout();
  const std::uint64_t f = 1;
  const std::uint64_t bad = l.first_record(f) + 4;
  auto data = file_bytes(l, f);
  // The last payload byte of the record, then a byte in the middle.
  for (const std::uint64_t at :
       {l.record_offset(bad) + l.record_bytes(bad) - 1, l.record_offset(bad) + kHeaderBytes + 5}) {
    auto corrupt = data;
    corrupt[static_cast<std::size_t>(at)] ^= std::byte{0x10};
    for (const std::size_t chunk : {std::size_t{1}, std::size_t{13}, corrupt.size()}) {
      const auto v = verify_whole_file(l, f, corrupt, chunk);
      INFO("corrupt byte " << at << ", chunk " << chunk << ": " << v.first_error());
      CHECK(v.complete());
      CHECK(v.checked() == kPerFile);
      CHECK(v.mismatches() == 1);
      CHECK_THAT(v.first_error(), Contains(record_label(bad)));
      CHECK_THAT(v.first_error(), Contains("offset " + std::to_string(l.record_offset(bad))));
      CHECK_THAT(v.first_error(), Contains("checksum"));
      CHECK_THAT(v.first_error(), Contains(l.relative_path(f)));
    }
  }
}

TEST_CASE("record_verifier detects a record whose header names another index", "[verifier]") {
  const auto l = make_layout();
  const std::uint64_t f = 0;
  const std::uint64_t bad = l.first_record(f) + 6;
  auto data = file_bytes(l, f);
  // A well-formed record of the right size and dataset, but claiming index 3.
  make_record(l.params().dataset_id(), 3, l.record_bytes(bad), data.data() + l.record_offset(bad));
  expect_one_mismatch(l, f, data, bad, "header names record 3");
}

TEST_CASE("record_verifier detects a record that belongs to another dataset", "[verifier]") {
  const auto l = make_layout();
  const std::uint64_t f = 2;
  const std::uint64_t bad = l.first_record(f);
  auto data = file_bytes(l, f);
  make_record(l.params().dataset_id() ^ 1, bad, l.record_bytes(bad), data.data());
  expect_one_mismatch(l, f, data, bad, "another dataset");
}

TEST_CASE("record_verifier detects a corrupted header magic", "[verifier]") {
  const auto l = make_layout();
  const std::uint64_t bad = l.first_record(1) + 2;
  auto data = file_bytes(l, 1);
  data[static_cast<std::size_t>(l.record_offset(bad))] ^= std::byte{0x01};
  const auto v = verify_whole_file(l, 1, data, 17);
  INFO(v.first_error());
  CHECK(v.complete());
  CHECK(v.mismatches() == 1);
  CHECK_THAT(v.first_error(), Contains(record_label(bad)));
  CHECK_THAT(v.first_error(), Contains("bad record header"));
}

TEST_CASE("record_verifier counts every bad record but reports the first", "[verifier]") {
  const auto l = make_layout();
  const std::uint64_t f = 1;
  auto data = file_bytes(l, f);
  const std::uint64_t first_bad = l.first_record(f) + 2;
  const std::uint64_t second_bad = l.first_record(f) + 7;
  data[static_cast<std::size_t>(l.record_offset(first_bad) + kHeaderBytes)] ^= std::byte{1};
  data[static_cast<std::size_t>(l.record_offset(second_bad) + kHeaderBytes)] ^= std::byte{1};
  const auto v = verify_whole_file(l, f, data, 3);
  CHECK(v.complete());
  CHECK(v.checked() == kPerFile);
  CHECK(v.mismatches() == 2);
  CHECK_THAT(v.first_error(), Contains(record_label(first_bad)));
  CHECK_THAT(v.first_error(), !Contains(record_label(second_bad)));
}

TEST_CASE("record_verifier reports bytes missing when a feed skips part of a record",
          "[verifier]") {
  const auto l = make_layout();
  const std::uint64_t f = 0;
  const auto data = file_bytes(l, f);
  const std::uint64_t r = l.first_record(f) + 3;
  const std::uint64_t cut = l.record_offset(r) + kHeaderBytes + 4; // inside record r's payload
  const std::uint64_t resume = cut + 8;
  record_verifier v;
  v.reset(l, f, l.first_record(f), kPerFile);
  v.feed(0, data.data(), static_cast<std::size_t>(cut));
  v.feed(resume, data.data() + resume, data.size() - static_cast<std::size_t>(resume));
  INFO(v.first_error());
  CHECK(v.mismatches() >= 1);
  CHECK_THAT(v.first_error(), Contains(record_label(r)));
  CHECK_THAT(v.first_error(), Contains("missing"));
}

TEST_CASE("record_verifier is not complete until the last record's bytes arrive", "[verifier]") {
  const auto l = make_layout();
  const auto data = file_bytes(l, 0);
  record_verifier v;
  v.reset(l, 0, 0, kPerFile);
  const std::size_t short_by_one = data.size() - 1;
  v.feed(0, data.data(), short_by_one);
  CHECK_FALSE(v.complete());
  CHECK(v.checked() == kPerFile - 1);
  v.feed(short_by_one, data.data() + short_by_one, 1);
  CHECK(v.complete());
  CHECK(v.checked() == kPerFile);
  CHECK(v.mismatches() == 0);
}

TEST_CASE("record_verifier reset clears a previous range's errors and counts", "[verifier]") {
  const auto l = make_layout();
  auto data = file_bytes(l, 0);
  auto corrupt = data;
  corrupt[100] ^= std::byte{0x80};
  record_verifier v;
  v.reset(l, 0, 0, kPerFile);
  feed_chunks(v, 0, corrupt, 64);
  REQUIRE(v.mismatches() >= 1);
  v.reset(l, 0, 0, kPerFile);
  CHECK(v.mismatches() == 0);
  CHECK(v.checked() == 0);
  CHECK(v.first_error().empty());
  CHECK_FALSE(v.complete());
  feed_chunks(v, 0, data, 64);
  CHECK(v.complete());
  CHECK(v.mismatches() == 0);
}

TEST_CASE("record_verifier fail records an outside problem naming the file", "[verifier]") {
  const auto l = make_layout();
  record_verifier v;
  v.reset(l, 2, l.first_record(2), kPerFile);
  v.fail("file is truncated");
  CHECK(v.mismatches() == 1);
  CHECK_THAT(v.first_error(), Contains(l.relative_path(2)) && Contains("file is truncated"));
  v.fail("second problem");
  CHECK(v.mismatches() == 2);
  CHECK_THAT(v.first_error(), !Contains("second problem"));
}

TEST_CASE("record_verifier with an empty range is complete at once", "[verifier]") {
  const auto l = make_layout();
  record_verifier v;
  v.reset(l, 0, 3, 0);
  CHECK(v.complete());
  CHECK(v.checked() == 0);
}

namespace {

// One TFRecord file of records with these data sizes, behind a small header of other bytes
// that no record covers (as a listing's samples need not tile a file), and its listing.
struct tfrecord_file {
  std::vector<std::byte> bytes;
  dataset_layout layout;
};

void put_le(std::vector<std::byte>& out, std::uint64_t v, int n) {
  for (int i = 0; i < n; ++i)
    out.push_back(static_cast<std::byte>((v >> (8 * i)) & 0xff));
}

tfrecord_file make_tfrecord_file(const std::vector<std::size_t>& sizes) {
  std::vector<std::byte> out(7, std::byte{0xAB});
  file_listing l;
  l.first_record.push_back(0);
  std::mt19937_64 gen(5);
  for (const std::size_t n : sizes) {
    l.record_offset.push_back(out.size());
    l.record_bytes.push_back(n + kTfrecordFrameBytes);
    const std::size_t at = out.size();
    put_le(out, n, 8);
    put_le(out, tfrecord_masked_crc(out.data() + at, 8), 4);
    const std::size_t data_at = out.size();
    for (std::size_t i = 0; i < n; ++i)
      out.push_back(static_cast<std::byte>(gen()));
    put_le(out, tfrecord_masked_crc(out.data() + data_at, n), 4);
  }
  l.first_record.push_back(sizes.size());
  l.paths = {"shards/train-0.tfrecord"};
  l.sizes = {out.size()};
  l.mtime_ns = {0};
  l.tfrecord = true;
  dataset_params p;
  p.workload = "verifier-unit";
  p.layout = dlsize::config::file_layout::shards;
  p.format = "indexed";
  return {out, dataset_layout(std::filesystem::temp_directory_path() / "dlsize-unit-tfr", p,
                              std::move(l))};
}

const std::vector<std::size_t> kTfSizes = {0, 5, 300, 1, 70, 4096, 33};

// Checks every record of the file in each chunk size and expects `bad` mismatches, the first at
// record `first_bad` (its place in the file) with `what`.
void expect_tfrecord(const tfrecord_file& t, std::uint64_t bad, std::uint64_t first_bad,
                     const std::string& what) {
  for (const std::size_t chunk :
       {std::size_t{1}, std::size_t{3}, std::size_t{12}, std::size_t{100}, t.bytes.size()}) {
    record_verifier v;
    v.reset(t.layout, 0, 0, kTfSizes.size());
    feed_chunks(v, 0, t.bytes, chunk);
    INFO("chunk " << chunk << ": " << v.first_error());
    CHECK(v.complete());
    CHECK(v.checked() == kTfSizes.size());
    CHECK(v.mismatches() == bad);
    if (bad) {
      CHECK_THAT(v.first_error(),
                 Contains("shards/train-0.tfrecord record " + std::to_string(first_bad) +
                          " (offset " + std::to_string(t.layout.record_offset(first_bad)) + ")"));
      CHECK_THAT(v.first_error(), Contains(what));
    }
  }
}

} // namespace

TEST_CASE("record_verifier accepts TFRecord records whose masked CRCs match, in any chunking",
          "[verifier][tfrecord]") {
  const auto t = make_tfrecord_file(kTfSizes);
  expect_tfrecord(t, 0, 0, "");
  for (std::uint64_t seed = 0; seed < 20; ++seed) {
    record_verifier v;
    v.reset(t.layout, 0, 0, kTfSizes.size());
    feed_random_chunks(v, 0, t.bytes, 40, seed);
    INFO("seed " << seed << ": " << v.first_error());
    CHECK(v.complete());
    CHECK(v.mismatches() == 0);
  }
}

TEST_CASE("record_verifier finds a flipped TFRecord data byte and names the record in its file",
          "[verifier][tfrecord]") {
  auto t = make_tfrecord_file(kTfSizes);
  t.bytes[static_cast<std::size_t>(t.layout.record_offset(2) + kTfrecordHeaderBytes + 150)] ^=
      std::byte{0x08};
  expect_tfrecord(t, 1, 2, "data CRC mismatch");
}

TEST_CASE("record_verifier finds a corrupted TFRecord length CRC", "[verifier][tfrecord]") {
  auto t = make_tfrecord_file(kTfSizes);
  t.bytes[static_cast<std::size_t>(t.layout.record_offset(5) + 10)] ^= std::byte{0x01};
  expect_tfrecord(t, 1, 5, "length CRC mismatch");
}

TEST_CASE("record_verifier finds a corrupted TFRecord footer and an empty record's",
          "[verifier][tfrecord]") {
  auto t = make_tfrecord_file(kTfSizes);
  // Record 0 holds no data: its footer is the masked CRC of nothing.
  t.bytes[static_cast<std::size_t>(t.layout.record_offset(0) + kTfrecordHeaderBytes)] ^=
      std::byte{0x80};
  t.bytes[static_cast<std::size_t>(t.layout.record_offset(3) + t.layout.record_bytes(3) - 1)] ^=
      std::byte{0x80};
  expect_tfrecord(t, 2, 0, "data CRC mismatch");
}

TEST_CASE("record_verifier checks a range of TFRecord records read with alignment padding",
          "[verifier][tfrecord]") {
  auto t = make_tfrecord_file(kTfSizes);
  // Records 3..5 as an O_DIRECT read returns them: from a 64-byte boundary before record 3 to
  // one after record 5, the padding garbage.
  const std::uint64_t begin = t.layout.record_offset(3);
  const std::uint64_t end = t.layout.record_offset(5) + t.layout.record_bytes(5);
  const std::uint64_t a = begin / 64 * 64,
                      b = std::min<std::uint64_t>((end + 63) / 64 * 64, t.bytes.size());
  std::vector<std::byte> read(t.bytes.begin() + static_cast<std::ptrdiff_t>(a),
                              t.bytes.begin() + static_cast<std::ptrdiff_t>(b));
  std::fill(read.begin(), read.begin() + static_cast<std::ptrdiff_t>(begin - a), std::byte{0xFF});
  record_verifier v;
  v.reset(t.layout, 0, 3, 3);
  feed_random_chunks(v, a, read, 30, 3);
  INFO(v.first_error());
  CHECK(v.complete());
  CHECK(v.checked() == 3);
  CHECK(v.mismatches() == 0);
}
