// Unit tests for the typed `index stats` (dataset/index_stats_document.hpp,
// dataset/index_stats_json.cpp, dataset/index_stats_text.hpp): the statistics of a fixed index,
// its text and the workload profile of its shape are the bytes the string-keyed code wrote, and
// the JSON reads back to the same bytes.
//
// data/index-mixed-stats.json, -stats.txt and -workload.json were written by `dlsize index stats
// tests/unit/data/index-mixed.json [--json] [--emit-workload W]` before the statistics were
// typed, the index's absolute path then replaced by INDEX.
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "dataset/index_stats.hpp"
#include "dataset/index_stats_text.hpp"

using namespace dlsize::dataset;

namespace {

const std::filesystem::path kData = std::filesystem::path(DLSIZE_SOURCE_DIR) / "tests/unit/data";

std::string file_text(const std::string& name) {
  std::ifstream in(kData / name);
  REQUIRE(in);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

index_stats_document fixture_stats() {
  index_stats_document d = index_stats(kData / "index-mixed.json");
  d.index = "INDEX";
  return d;
}

std::string rendered(const index_stats_document& d) {
  char* buf = nullptr;
  std::size_t size = 0;
  std::FILE* out = open_memstream(&buf, &size);
  REQUIRE(out);
  print_index_stats(d, out);
  std::fclose(out);
  std::string text(buf, size);
  std::free(buf);
  return text;
}

} // namespace

TEST_CASE("index stats of a fixed index are the bytes the string-keyed code wrote", "[index]") {
  const index_stats_document d = fixture_stats();
  const std::string want = file_text("index-mixed-stats.json");
  CHECK(to_json(d).dump(2) + "\n" == want);
  // Read back and written again: the same bytes.
  CHECK(to_json(index_stats_from_json(nlohmann::json::parse(want))).dump(2) + "\n" == want);
  CHECK(to_json(workload_of_shape(d, "index-mixed-workload")).dump(2) + "\n" ==
        file_text("index-mixed-workload.json"));
}

TEST_CASE("index stats' text renders the typed value as before", "[index]") {
  CHECK(rendered(fixture_stats()) == file_text("index-mixed-stats.txt"));
}

TEST_CASE("a small typed index stats renders its figures", "[index]") {
  index_stats_document d;
  d.index = "i.json";
  d.dir = "/d";
  d.files = 2;
  d.bytes = 3072;
  d.samples = 3;
  d.bytes_per_sample = 1024;
  d.sample_bytes.buckets = {{1024, 1088, 3}};
  d.files_per_folder = {1, 2.0, 2.0, 2};
  d.formats["npy"] = {2, 3072, 3};
  d.skipped["symlink"] = 1;
  const std::string text = rendered(d);
  CHECK_THAT(text, Catch::Contains("index i.json of /d\n  files: 2 (3.00 KiB), samples: 3, bytes "
                                   "per sample: 1024\n"));
  CHECK_THAT(text, Catch::Contains("    [1.00 KiB, 1.06 KiB): 3\n"));
  CHECK_THAT(text, Catch::Contains("  format npy: 2 files, 3 samples\n"));
  CHECK_THAT(text, Catch::Contains("  skipped when indexed (symlink): 1\n"));
}
