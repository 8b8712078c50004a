// Unit tests for src/config/workload.hpp: embedded and user workload profiles.
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

#include <catch2/catch.hpp>

#include "test_support.hpp"
#include <nlohmann/json.hpp>

#include "config/workload.hpp"
#include "core/error.hpp"

namespace {

using namespace dlsize::config;
using Catch::Matchers::Contains;

using dlsize::test::usage_error_message;

// A small valid profile; tests alter it to make it invalid.
nlohmann::json minimal_profile() {
  return nlohmann::json::parse(R"({
    "name": "tiny",
    "dataset": {"layout": "shards", "records_per_file": 8, "sample_bytes": {"mean": 4096}},
    "accelerators": {"a100": {"batch_size": 32, "compute_time_s": 0.01}}
  })");
}

std::string parse_error(const nlohmann::json& j) {
  return usage_error_message([&] { (void)parse_workload(j.dump(), "tiny.json"); });
}

} // namespace

TEST_CASE("load_workload(\"resnet50\") returns the embedded ResNet-50 profile", "[workload]") {
  const auto p = load_workload("resnet50");
  CHECK(p.name == "resnet50");
  CHECK(p.origin == "embedded");
  CHECK(p.layout == file_layout::shards);
  CHECK(p.format == "tfrecord");
  CHECK(p.records_per_file == 1251);
  CHECK(p.files == 1024);
  CHECK(p.sample_bytes_mean == 114660.0);
  CHECK(p.sample_bytes_stdev == 0.0);
  CHECK(p.au_threshold == Approx(0.90));
  REQUIRE(p.accelerators.count("a100") == 1);
  const auto& a100 = p.accelerators.at("a100");
  CHECK(a100.name == "a100");
  CHECK(a100.batch_size == 400);
  CHECK(a100.compute_time_s == Approx(0.435));
  CHECK(a100.compute_time_stdev_s == 0.0);
  REQUIRE(p.accelerators.count("v100") == 1);
  CHECK(p.accelerators.at("v100").batch_size == 64);
  CHECK(p.accelerators.at("v100").compute_time_s == Approx(0.195));
  REQUIRE(p.accelerators.count("h100") == 1);
  CHECK(p.accelerators.at("h100").compute_time_s == Approx(0.224));
  CHECK(p.model.at("parameters").get<std::uint64_t>() == 25557032);
  CHECK(p.raw.at("name") == "resnet50");
}

TEST_CASE("every known workload name loads as an embedded profile of that name", "[workload]") {
  const auto names = known_workloads();
  CHECK(names.size() >= 3);
  for (const char* expected : {"resnet50", "unet3d", "cosmoflow"})
    CHECK(std::find(names.begin(), names.end(), expected) != names.end());
  for (const auto& name : names) {
    INFO("workload " << name);
    const auto p = load_workload(name);
    CHECK(p.name == name);
    CHECK(p.origin == "embedded");
    if (!p.has_dataset) { // a checkpoint-only profile (llama3-*)
      CHECK(p.checkpoint.has_value());
      continue;
    }
    CHECK(p.sample_bytes_mean >= 64);
    CHECK_FALSE(p.accelerators.empty());
  }
}

TEST_CASE("load_workload of an unknown name throws usage_error listing the known names",
          "[workload]") {
  const std::string msg = usage_error_message([] { (void)load_workload("bogusnet"); });
  CHECK_THAT(msg, Contains("unknown workload 'bogusnet'"));
  for (const auto& name : known_workloads())
    CHECK_THAT(msg, Contains(name));
}

TEST_CASE("load_workload reads a profile from a path and records the file as its origin",
          "[workload]") {
  const auto dir = std::filesystem::temp_directory_path() /
                   ("dlsize-unit-workload-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto file = dir / "tiny.json";
  {
    std::ofstream out(file);
    out << minimal_profile().dump(2);
  }
  const auto p = load_workload(file.string());
  CHECK(p.name == "tiny");
  CHECK(p.origin == file.string());
  CHECK(p.records_per_file == 8);
  // A path that does not exist is a usage_error naming it.
  const auto missing = (dir / "missing.json").string();
  CHECK_THAT(usage_error_message([&] { (void)load_workload(missing); }), Contains(missing));
  std::filesystem::remove_all(dir);
}

TEST_CASE("parse_workload fills documented defaults for omitted optional keys", "[workload]") {
  const auto p = parse_workload(minimal_profile().dump(), "tiny.json");
  CHECK(p.name == "tiny");
  CHECK(p.origin == "tiny.json");
  CHECK(p.layout == file_layout::shards);
  CHECK(p.records_per_file == 8);
  CHECK(p.files == 1024);
  CHECK(p.sample_bytes_mean == 4096.0);
  CHECK(p.sample_bytes_stdev == 0.0);
  CHECK(p.au_threshold == Approx(0.9));
  CHECK(p.accelerators.at("a100").batch_size == 32);
  CHECK(p.accelerators.at("a100").compute_time_s == Approx(0.01));
  CHECK(p.accelerators.at("a100").compute_time_stdev_s == 0.0);

  auto files = minimal_profile();
  files["dataset"] = {{"layout", "files"}, {"sample_bytes", {{"mean", 100}}}};
  const auto pf = parse_workload(files.dump(), "files.json");
  CHECK(pf.layout == file_layout::files);
  CHECK(pf.records_per_file == 1);
}

TEST_CASE("parse_workload rejects an unknown key naming its key path", "[workload]") {
  {
    auto j = minimal_profile();
    j["dataset"]["bogus"] = 1;
    const auto msg = parse_error(j);
    CHECK_THAT(msg, Contains("tiny.json") && Contains("dataset.bogus") && Contains("unknown key"));
  }
  {
    auto j = minimal_profile();
    j["bogus_top"] = true;
    const auto msg = parse_error(j);
    CHECK_THAT(msg, Contains("bogus_top") && Contains("unknown key"));
  }
  {
    auto j = minimal_profile();
    j["dataset"]["sample_bytes"]["median"] = 5;
    CHECK_THAT(parse_error(j), Contains("dataset.sample_bytes.median"));
  }
  {
    auto j = minimal_profile();
    j["accelerators"]["a100"]["batch"] = 5;
    CHECK_THAT(parse_error(j), Contains("accelerators.a100.batch"));
  }
}

TEST_CASE("parse_workload rejects a negative compute_time_s naming "
          "accelerators.a100.compute_time_s",
          "[workload]") {
  auto j = minimal_profile();
  j["accelerators"]["a100"]["compute_time_s"] = -0.5;
  const auto msg = parse_error(j);
  CHECK_THAT(msg, Contains("tiny.json") && Contains("accelerators.a100.compute_time_s"));
}

TEST_CASE("parse_workload rejects bad values naming their key path", "[workload]") {
  struct bad_case {
    const char* pointer;
    nlohmann::json value;
    const char* path;
  };
  const bad_case cases[] = {
      {"/dataset/layout", "tree", "dataset.layout"},
      {"/dataset/sample_bytes/mean", 10, "dataset.sample_bytes.mean"},
      {"/dataset/sample_bytes/mean", "big", "dataset.sample_bytes.mean"},
      {"/dataset/sample_bytes/stdev", -1, "dataset.sample_bytes.stdev"},
      {"/dataset/records_per_file", 0, "dataset.records_per_file"},
      {"/dataset/records_per_file", -3, "dataset.records_per_file"},
      {"/dataset/files", 0, "dataset.files"},
      {"/au_threshold", 1.5, "au_threshold"},
      {"/accelerators/a100/batch_size", 0, "accelerators.a100.batch_size"},
      {"/accelerators/a100/batch_size", 2.5, "accelerators.a100.batch_size"},
      {"/accelerators/a100/compute_time_stdev_s", -1, "accelerators.a100.compute_time_stdev_s"},
      {"/name", 5, "name"},
  };
  for (const auto& c : cases) {
    auto j = minimal_profile();
    j[nlohmann::json::json_pointer(c.pointer)] = c.value;
    INFO(c.pointer << " = " << c.value.dump());
    CHECK_THAT(parse_error(j), Contains(std::string("tiny.json: ") + c.path));
  }
}

TEST_CASE("parse_workload rejects missing required keys naming them", "[workload]") {
  {
    auto j = minimal_profile();
    j.erase("name");
    CHECK_THAT(parse_error(j), Contains("name") && Contains("missing"));
  }
  {
    auto j = minimal_profile();
    j.erase("dataset");
    CHECK_THAT(parse_error(j), Contains("dataset") && Contains("missing"));
  }
  {
    auto j = minimal_profile();
    j["dataset"]["sample_bytes"].erase("mean");
    CHECK_THAT(parse_error(j), Contains("dataset.sample_bytes.mean") && Contains("missing"));
  }
}

TEST_CASE("parse_workload rejects records_per_file other than 1 for layout 'files'", "[workload]") {
  auto j = minimal_profile();
  j["dataset"]["layout"] = "files";
  CHECK_THAT(parse_error(j), Contains("dataset.records_per_file"));
}

TEST_CASE("parse_workload rejects text that is not JSON naming the source", "[workload]") {
  const std::string msg =
      usage_error_message([] { (void)parse_workload("{\"name\": ", "broken.json"); });
  CHECK_THAT(msg, Contains("broken.json") && Contains("not valid JSON"));
}
