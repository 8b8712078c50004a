// Unit tests for the typed index (dataset/index_document.hpp, dataset/index_json.cpp): the
// header of an index dlsize wrote, read by header_from_json and written by to_json, is the same
// bytes; a bucket's header (s3, requests, keys) survives the trip too; every line reads back
// typed; what is not a header or a line is told apart.
//
// data/index-mixed.json was written by `dlsize index DIR --out OUT --threads 1` before the index
// was typed, of the folder tests/integration/foreign_dataset.py makes; DIR was then renamed
// /data/mixed in it and its digest made again for that name.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "dataset/index_document.hpp"
#include "dataset/index_file.hpp"

using namespace dlsize::dataset;

namespace {

const std::filesystem::path kFixture =
    std::filesystem::path(DLSIZE_SOURCE_DIR) / "tests/unit/data/index-mixed.json";

std::string first_line() {
  std::ifstream in(kFixture);
  REQUIRE(in);
  std::string line;
  std::getline(in, line);
  return line;
}

} // namespace

TEST_CASE("an index header dlsize wrote is the same bytes through from_json and to_json",
          "[index]") {
  const std::string text = first_line();
  const auto h = header_from_json(nlohmann::json::parse(text));
  REQUIRE(h);
  CHECK(to_json(*h).dump() == text);
  CHECK(h->dir == "/data/mixed");
  CHECK(h->counts.files == 27);
  CHECK(h->counts.formats.at("tfrecord")[2] == 81);
  CHECK(h->counts.skipped.at("hardlink") == 1);
  CHECK(h->options.threads == 1u);
  CHECK_FALSE(h->s3);
  CHECK_FALSE(h->requests);
}

TEST_CASE("a bucket's index header survives the trip", "[index]") {
  index_header h;
  h.tool = {{"name", "dlsize"}};
  h.dir = "s3://b/p";
  h.s3 = index_bucket_identity{{"http://a:9000", "http://b:9000"}, "b", "p", "us-east-1", "path"};
  h.created_at = "2025-01-01T00:00:00Z";
  h.scan_s = 0.125;
  h.options.bucket = true;
  h.options.exclude = {"*.txt"};
  h.options.keys = "/keys.txt";
  h.options.threads = 4;
  h.requests = index_requests{1, 2, 3, 4};
  h.counts.files = 3;
  h.counts.formats["jpeg"] = {3, 300, 3};
  h.digest = "fnv1a64:0000000000000001";
  const std::string text = to_json(h).dump();
  CHECK(text.find(R"("keys":"/keys.txt")") != std::string::npos);
  CHECK(text.find("symlinks") == std::string::npos);
  CHECK(text.find(R"("requests":{"get":3,"head":2,"list":1,"retries":4})") != std::string::npos);
  const auto back = header_from_json(nlohmann::json::parse(text));
  REQUIRE(back);
  CHECK(to_json(*back).dump() == text);
}

TEST_CASE("every line of an index dlsize wrote reads back typed", "[index]") {
  index_reader in(kFixture);
  CHECK(in.header().digest == "fnv1a64:d508893d6e694ebf");
  index_line l;
  std::uint64_t files = 0, samples = 0, skipped = 0;
  while (in.next(l)) {
    if (l.skipped) {
      ++skipped;
      continue;
    }
    ++files;
    REQUIRE(l.size);
    CHECK(l.mtime_ns);
    samples += l.records ? l.records->size() : 1;
    if (l.format == "tfrecord")
      CHECK(l.records);
  }
  CHECK(files == in.header().counts.files);
  CHECK(skipped == 5);
  // tar and parquet count their members as samples without byte ranges for each
  CHECK(samples <= in.header().counts.samples);
}

TEST_CASE("what is not an index header or line reads as nothing", "[index]") {
  CHECK_FALSE(header_from_json(nlohmann::json::array()));
  CHECK_FALSE(header_from_json({{"schema", "dlsize.index/2"},
                                {"dir", "/d"},
                                {"digest", "x"},
                                {"counts", nlohmann::json::object()}}));
  CHECK_FALSE(header_from_json({{"schema", kIndexSchema}, {"dir", "/d"}, {"digest", "x"}}));
  const auto lenient = header_from_json(
      {{"schema", kIndexSchema}, {"dir", "/d"}, {"digest", "x"}, {"counts", {{"lines", 2}}}});
  REQUIRE(lenient);
  CHECK(lenient->counts.lines == 2);
  CHECK(lenient->counts.files == 0);
  CHECK_THROWS(counts_from_json({{"lines", 2}}, true));
  CHECK_FALSE(line_from_json({{"size", 1}}));
  const auto bad = line_from_json({{"path", "a"}, {"size", -1}, {"records", {{1}}}});
  REQUIRE(bad);
  CHECK_FALSE(bad->size);
  CHECK(bad->has_records);
  CHECK_FALSE(bad->records);
}
