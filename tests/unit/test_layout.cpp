// Unit tests for src/dataset/layout.hpp: record sizes, offsets, file sizes and sizing.
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "test_support.hpp"

#include "core/error.hpp"
#include "dataset/layout.hpp"
#include "dataset/record.hpp"

namespace {

using namespace dlsize::dataset;

std::filesystem::path temp_root() {
  return std::filesystem::temp_directory_path() / "dlsize-unit-layout";
}

dataset_params varied_params(std::uint64_t files, std::uint64_t per_file, std::uint64_t seed) {
  dataset_params p;
  p.workload = "unit";
  p.layout =
      per_file > 1 ? dlsize::config::file_layout::shards : dlsize::config::file_layout::files;
  p.format = "tfrecord";
  p.records_per_file = per_file;
  p.files = files;
  p.sample_bytes_mean = 5000;
  p.sample_bytes_stdev = 2000;
  p.seed = seed;
  return p;
}

using dlsize::test::usage_error_message;

} // namespace

TEST_CASE("record_size is a deterministic function of the seed and record index", "[layout]") {
  const auto p = varied_params(1, 1, 7);
  auto q = p;
  q.seed = 8;
  std::size_t differing = 0;
  for (std::uint64_t i = 0; i < 1000; ++i) {
    REQUIRE(record_size(p, i) == record_size(p, i));
    if (record_size(p, i) != record_size(q, i))
      ++differing;
  }
  // Another seed gives another sequence of sizes.
  CHECK(differing > 900);
  // Sizes vary from one index to the next.
  CHECK(record_size(p, 0) != record_size(p, 1));
}

TEST_CASE("record_size with zero stdev is exactly the mean", "[layout]") {
  dataset_params p = varied_params(1, 1, 3);
  p.sample_bytes_mean = 114660;
  p.sample_bytes_stdev = 0;
  for (std::uint64_t i = 0; i < 1000; ++i)
    REQUIRE(record_size(p, i) == 114660);
}

TEST_CASE("record_size stays within mean +- 3 stdev and never below 64 bytes", "[layout]") {
  struct shape {
    double mean, stdev;
  };
  for (const shape s : {shape{5000, 2000}, shape{1000, 500}, shape{64, 100}, shape{100000, 1}}) {
    dataset_params p = varied_params(1, 1, 11);
    p.sample_bytes_mean = s.mean;
    p.sample_bytes_stdev = s.stdev;
    const double lo = std::max(64.0, s.mean - 3 * s.stdev);
    const double hi = s.mean + 3 * s.stdev;
    for (std::uint64_t i = 0; i < 20000; ++i) {
      const auto v = static_cast<double>(record_size(p, i));
      INFO("mean " << s.mean << " stdev " << s.stdev << " index " << i << " size " << v);
      REQUIRE(v >= std::floor(lo));
      REQUIRE(v <= std::ceil(hi));
      REQUIRE(v >= static_cast<double>(kMinRecordBytes));
    }
  }
}

TEST_CASE("record_size follows the requested mean and spread", "[layout]") {
  dataset_params p = varied_params(1, 1, 13);
  p.sample_bytes_mean = 100000;
  p.sample_bytes_stdev = 20000;
  const int n = 40000;
  double sum = 0, sum2 = 0;
  for (int i = 0; i < n; ++i) {
    const auto v = static_cast<double>(record_size(p, static_cast<std::uint64_t>(i)));
    sum += v;
    sum2 += v * v;
  }
  const double mean = sum / n;
  const double stdev = std::sqrt(sum2 / n - mean * mean);
  CHECK(mean == Approx(100000).epsilon(0.01));
  CHECK(stdev == Approx(20000).epsilon(0.05));
}

TEST_CASE("dataset_layout record offsets are prefix sums of record sizes within each file and "
          "file bytes are their sums",
          "[layout]") {
  const auto p = varied_params(7, 13, 17);
  const dataset_layout l(temp_root(), p);
  CHECK(l.files() == 7);
  CHECK(l.records() == 91);
  std::uint64_t total = 0;
  for (std::uint64_t f = 0; f < l.files(); ++f) {
    CHECK(l.first_record(f) == f * 13);
    std::uint64_t off = 0;
    for (std::uint64_t k = 0; k < 13; ++k) {
      const std::uint64_t r = l.first_record(f) + k;
      INFO("file " << f << " record " << r);
      REQUIRE(l.record_bytes(r) == record_size(p, r));
      REQUIRE(l.record_offset(r) == off);
      off += l.record_bytes(r);
    }
    CHECK(l.file_bytes(f) == off);
    total += off;
  }
  CHECK(l.total_bytes() == total);
}

TEST_CASE("dataset_layout with one record per file puts every record at offset 0", "[layout]") {
  const auto p = varied_params(20, 1, 19);
  const dataset_layout l(temp_root(), p);
  std::uint64_t total = 0;
  for (std::uint64_t f = 0; f < 20; ++f) {
    CHECK(l.record_offset(f) == 0);
    CHECK(l.file_bytes(f) == record_size(p, f));
    total += l.file_bytes(f);
  }
  CHECK(l.total_bytes() == total);
}

TEST_CASE("dataset_layout names files data/NNNNN/file-NNNNNNNN.rec, 1000 files per folder",
          "[layout]") {
  const auto p = varied_params(1, 1, 1);
  const dataset_layout l(temp_root(), p);
  CHECK(l.relative_path(0) == "data/00000/file-00000000.rec");
  CHECK(l.relative_path(999) == "data/00000/file-00000999.rec");
  CHECK(l.relative_path(1000) == "data/00001/file-00001000.rec");
  CHECK(l.relative_path(12345) == "data/00012/file-00012345.rec");
  CHECK(l.file_path(12345) == temp_root() / "data/00012/file-00012345.rec");
  CHECK(l.root() == temp_root());
}

TEST_CASE("files_for_size gives the smallest file count whose records reach the size", "[layout]") {
  const std::uint64_t per_file = 5;
  auto p = varied_params(60, per_file, 23);
  const dataset_layout l(temp_root(), p);
  std::vector<std::uint64_t> cum{0}; // cum[n] = bytes of the first n files
  for (std::uint64_t f = 0; f < l.files(); ++f)
    cum.push_back(cum.back() + l.file_bytes(f));

  const auto check_target = [&](std::uint64_t bytes) {
    const std::uint64_t n = files_for_size(p, bytes);
    INFO("target " << bytes << " gave " << n << " files");
    REQUIRE(n >= 1);
    REQUIRE(n < cum.size());
    CHECK(cum[n] >= bytes);
    CHECK(cum[n - 1] < bytes);
  };
  check_target(record_size(p, 0)); // exactly one record
  for (std::uint64_t n = 1; n < 50; ++n) {
    check_target(cum[n]);     // exactly n files
    check_target(cum[n] + 1); // one byte more needs another file
    check_target(cum[n] - 1);
  }
  CHECK(files_for_size(p, cum[10]) == 10);
  CHECK(files_for_size(p, cum[10] + 1) == 11);
}

TEST_CASE("files_for_size throws usage_error for a size below one record", "[layout]") {
  auto p = varied_params(1, 8, 29);
  const std::uint64_t one = record_size(p, 0);
  CHECK(files_for_size(p, one) == 1);
  for (const std::uint64_t bytes : {std::uint64_t{0}, std::uint64_t{1}, one - 1}) {
    const std::string msg = usage_error_message([&] { (void)files_for_size(p, bytes); });
    INFO("bytes " << bytes);
    CHECK_THAT(msg, Catch::Matchers::Contains("smaller than one record"));
    CHECK_THAT(msg, Catch::Matchers::Contains("'unit'"));
  }
}

TEST_CASE("dataset_params survive a to_json/from_json round trip", "[layout]") {
  auto p = varied_params(321, 17, 0xfedcba9876543210ull);
  const auto back = dataset_params::from_json(p.to_json(), "test");
  CHECK(back == p);
  CHECK(back.dataset_id() == p.dataset_id());
}

TEST_CASE("dataset_id differs when the seed or record parameters differ", "[layout]") {
  const auto p = varied_params(10, 4, 1);
  auto seed = p;
  seed.seed = 2;
  auto mean = p;
  mean.sample_bytes_mean = 5001;
  auto per_file = p;
  per_file.records_per_file = 5;
  auto workload = p;
  workload.workload = "other";
  CHECK(p.dataset_id() == varied_params(10, 4, 1).dataset_id());
  CHECK(seed.dataset_id() != p.dataset_id());
  CHECK(mean.dataset_id() != p.dataset_id());
  CHECK(per_file.dataset_id() != p.dataset_id());
  CHECK(workload.dataset_id() != p.dataset_id());
}

TEST_CASE("a dataset's counts are held to one set of ranges, and their product too",
          "[dataset][limits]") {
  CHECK_NOTHROW(check_shape(1, 1, "--files", "--records-per-file"));
  CHECK_THROWS_WITH(check_shape(0, 1, "--files", "--records-per-file"),
                    Catch::Contains("--files: 0 is out of range. valid: 1 to 1000000000"));
  CHECK_THROWS_WITH(check_shape(1, 0, "--files", "--records-per-file"),
                    Catch::Contains("--records-per-file: 0 is out of range. valid: 1 to 8388608"));
  CHECK_THROWS_WITH(
      check_shape(1'000'000'000, 1'000'000, "m: params.files", "m: params.records_per_file"),
      Catch::Contains("m: params.files × m: params.records_per_file") &&
          Catch::Contains("at most 4294967295 records"));
}

TEST_CASE("record sizes drawn from a size histogram fall in its buckets in proportion to their "
          "counts",
          "[layout]") {
  auto p = varied_params(1, 4000, 5);
  p.histogram = dlsize::config::size_histogram::from_json(
      nlohmann::json::parse("[[100, 200, 1], [5000, 5100, 3]]"), "test");
  std::uint64_t small = 0;
  for (std::uint64_t r = 0; r < 4000; ++r) {
    const std::uint64_t s = record_size(p, r);
    REQUIRE(((s >= 100 && s < 200) || (s >= 5000 && s < 5100)));
    small += s < 200;
  }
  CHECK(static_cast<double>(small) / 4000 == Approx(0.25).margin(0.03));
  const auto back = dataset_params::from_json(p.to_json(), "manifest");
  CHECK(back == p);
  auto plain = p;
  plain.histogram = {};
  CHECK(plain.dataset_id() != p.dataset_id());
}

TEST_CASE("a size histogram refuses buckets out of range, naming where", "[layout]") {
  using dlsize::config::size_histogram;
  for (const char* bad :
       {"[]", "[[0, 10, 1]]", "[[10, 10, 1]]", "[[1, 10, 0]]", "[[1, 10]]", "[[1, 5e9, 1]]", "{}"})
    CHECK_THROWS_WITH(size_histogram::from_json(nlohmann::json::parse(bad), "P.json: h"),
                      Catch::Contains("P.json: h"));
}
