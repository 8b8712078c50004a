#include <filesystem>

#include <catch2/catch.hpp>

#include "pipeline/bench_config.hpp"

using dlsize::config::accelerator_kind;
using dlsize::pipeline::replayable_config;

namespace {

// Options in effect as the command line gives them: defaults, nulls for unset ones.
nlohmann::json effective() {
  return {{"workload", "resnet50"},
          {"dataset", "data"},
          {"accelerator", "emulated:a100"},
          {"accelerators", 0},
          {"accelerators-per-rank", 0},
          {"au-threshold", nullptr},
          {"prefetch", 2},
          {"precision", "fp16"},
          {"cache", "direct"},
          {"open", "keep"},
          {"engine", "io_uring"},
          {"allreduce", "none"},
          {"nics-per-node", 1},
          {"checkpoint-every", ""},
          {"checkpoint-dir", ""},
          {"checkpoint-scale", 1},
          {"out", "r.json"},
          {"status-interval", "30s"},
          {"rules", "v3"}};
}

} // namespace

TEST_CASE("a training run's replayable config holds its resolved accelerators and no report "
          "options",
          "[bench_config]") {
  const auto c = replayable_config(effective(), accelerator_kind::emulated, 8, 2, 0.9);
  CHECK(c["accelerators"] == 8);
  CHECK(c["accelerators-per-rank"] == 4);
  CHECK(c["au-threshold"] == 0.9);
  CHECK(std::filesystem::path(c["dataset"].get<std::string>()).is_absolute());
  CHECK(c["workload"] == "resnet50"); // a profile name, not a file
  for (const char* k : {"out", "status-interval", "rules", "precision", "nics-per-node",
                        "checkpoint-every", "checkpoint-dir", "checkpoint-scale"})
    CHECK_FALSE(c.contains(k));
  CHECK(c["prefetch"] == 2);
}

TEST_CASE("a storage-only run's replayable config has no training options, a bucket's no file "
          "options",
          "[bench_config]") {
  auto e = effective();
  auto c = replayable_config(e, accelerator_kind::none, 0, 1, 0);
  for (const char* k :
       {"accelerators", "accelerators-per-rank", "prefetch", "au-threshold", "precision"})
    CHECK_FALSE(c.contains(k));
  CHECK(c["cache"] == "direct");
  e["dataset"] = "s3://bucket/prefix";
  c = replayable_config(e, accelerator_kind::none, 0, 1, 0);
  CHECK(c["dataset"] == "s3://bucket/prefix");
  CHECK(c["engine"] == "s3");
  CHECK_FALSE(c.contains("cache"));
  CHECK_FALSE(c.contains("open"));
}
