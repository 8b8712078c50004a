#include <catch2/catch.hpp>

#include "config/workload.hpp"
#include "dataset/datagen_rules.hpp"
#include "test_support.hpp"

using Catch::Matchers::Contains;
using Catch::Matchers::StartsWith;
using namespace dlsize::config;
using namespace dlsize::dataset;
using namespace dlsize::test;

namespace {

constexpr std::uint64_t kRam = std::uint64_t{1} << 30;

datagen_request files_request(std::uint64_t files) {
  datagen_request r;
  r.files = files;
  r.files_given = true;
  return r;
}

std::string refusal(const datagen_request& r, const std::string& workload = "resnet50") {
  const auto profile = load_workload(workload);
  return usage_error_message([&] { datagen_params_of(r, profile, kRam); });
}

} // namespace

TEST_CASE("datagen rules take the layout and records per file from the profile unless given",
          "[datagen_rules]") {
  const auto resnet = load_workload("resnet50"); // shards of 1251 records
  auto p = datagen_params_of(files_request(8), resnet, kRam);
  CHECK(p.layout == file_layout::shards);
  CHECK(p.records_per_file == 1251);
  CHECK(p.files == 8);
  auto r = files_request(8);
  r.records_per_file = 10;
  r.records_per_file_given = true;
  r.seed = 7;
  p = datagen_params_of(r, resnet, kRam);
  CHECK(p.records_per_file == 10);
  CHECK(p.seed == 7);
  r = files_request(8);
  r.layout = "files";
  CHECK(datagen_params_of(r, resnet, kRam).records_per_file == 1);
  // A files profile made into shards gets 1024 records per file.
  r.layout = "shards";
  CHECK(datagen_params_of(r, load_workload("cosmoflow"), kRam).records_per_file == 1024);
}

TEST_CASE("datagen rules turn --size into files, multiples of RAM included", "[datagen_rules]") {
  const auto resnet = load_workload("resnet50");
  datagen_request r;
  r.size = "1x-ram";
  const auto ram_sized = datagen_params_of(r, resnet, kRam).files;
  r.size = "2x-ram";
  CHECK(datagen_params_of(r, resnet, kRam).files > ram_sized);
  CHECK(ram_sized >= 1);
}

TEST_CASE("datagen rules refuse more than one record per file with --layout files",
          "[datagen_rules]") {
  auto r = files_request(8);
  r.layout = "files";
  r.records_per_file = 4;
  r.records_per_file_given = true;
  CHECK(refusal(r) == "--records-per-file: must be 1 with --layout files");
  r.layout = "folders";
  CHECK_THAT(refusal(r), StartsWith("--layout"));
}

TEST_CASE("datagen rules want exactly one of --size and --files", "[datagen_rules]") {
  const std::string message = "datagen: give exactly one of --size SIZE or --files N";
  CHECK(refusal(datagen_request{}) == message);
  auto r = files_request(8);
  r.size = "1GiB";
  CHECK(refusal(r) == message);
}

TEST_CASE("datagen rules refuse counts out of range, naming the option", "[datagen_rules]") {
  CHECK(refusal(files_request(0)) == "--files: 0 is out of range. valid: 1 to 1000000000");
  auto r = files_request(8);
  r.records_per_file = 0;
  r.records_per_file_given = true;
  CHECK_THAT(refusal(r), StartsWith("--records-per-file: 0 is out of range. valid: 1 to"));
  r = files_request(1'000'000'000);
  r.records_per_file = 1000;
  r.records_per_file_given = true;
  CHECK_THAT(refusal(r), Contains("--files × --records-per-file:"));
  CHECK_THAT(refusal(r), Contains("more than a dataset may hold"));
}

TEST_CASE("datagen rules refuse a profile without a dataset", "[datagen_rules]") {
  CHECK_THAT(refusal(files_request(8), "llama3-8b"), Contains("is a checkpoint-only profile"));
}
