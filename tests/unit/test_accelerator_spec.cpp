// Unit tests for src/config/accelerator_spec.hpp: --accelerator values, overrides, calibrations.
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <catch2/catch.hpp>

#include "test_support.hpp"
#include <nlohmann/json.hpp>

#include "config/accelerator_spec.hpp"
#include "config/workload.hpp"

namespace {

using namespace dlsize::config;
using Catch::Matchers::Contains;
using dlsize::test::minimal_calibration;
using dlsize::test::usage_error_message;

std::string calibration_error(const nlohmann::json& j) {
  return usage_error_message([&] { (void)parse_calibration(j.dump(), "cal.json", "resnet50"); });
}

using dlsize::test::temp_dir;

} // namespace

TEST_CASE("resolve_accelerator of emulated:h100 takes the resnet50 profile's preset",
          "[accelerator_spec]") {
  const auto w = load_workload("resnet50");
  const auto a = resolve_accelerator("emulated:h100", w, {});
  CHECK(a.kind == accelerator_kind::emulated);
  CHECK(a.type == "h100");
  CHECK(a.preset.batch_size == 400);
  CHECK(a.preset.compute_time_s == Approx(0.224));
  CHECK(a.preset.compute_time_stdev_s == 0.0);
  CHECK(a.origin == "workload resnet50");
}

TEST_CASE("resolve_accelerator of none is storage only", "[accelerator_spec]") {
  const auto a = resolve_accelerator("none", load_workload("resnet50"), {});
  CHECK(a.kind == accelerator_kind::none);
}

TEST_CASE("resolve_accelerator of an unknown type lists the known types", "[accelerator_spec]") {
  const auto w = load_workload("resnet50");
  const auto msg = usage_error_message([&] { (void)resolve_accelerator("emulated:tpu9", w, {}); });
  CHECK_THAT(msg, Contains("--accelerator"));
  CHECK_THAT(msg, Contains("tpu9"));
  CHECK_THAT(msg, Contains("emulated:a100"));
  CHECK_THAT(msg, Contains("emulated:h100"));
  // A value without the emulated: prefix is rejected the same way.
  const auto bare = usage_error_message([&] { (void)resolve_accelerator("h100", w, {}); });
  CHECK_THAT(bare, Contains("--accelerator"));
  CHECK_THAT(bare, Contains("emulated:a100"));
  CHECK_THAT(usage_error_message([&] { (void)resolve_accelerator("emulated:", w, {}); }),
             Contains("emulated:a100"));
}

TEST_CASE("resolve_accelerator applies batch size and compute time overrides",
          "[accelerator_spec]") {
  const auto w = load_workload("resnet50");
  preset_overrides over;
  over.batch_size = 128;
  over.compute_time_s = 0.05;
  over.compute_time_stdev_s = 0.005;
  const auto a = resolve_accelerator("emulated:h100", w, over);
  CHECK(a.preset.batch_size == 128);
  CHECK(a.preset.compute_time_s == Approx(0.05));
  CHECK(a.preset.compute_time_stdev_s == Approx(0.005));
  CHECK_THAT(a.preset.source, Contains("--batch-size"));
  CHECK_THAT(a.preset.source, Contains("--compute-time"));

  // Only the batch size: the compute time stays the profile's.
  preset_overrides batch_only;
  batch_only.batch_size = 8;
  const auto b = resolve_accelerator("emulated:a100", w, batch_only);
  CHECK(b.preset.batch_size == 8);
  CHECK(b.preset.compute_time_s == Approx(0.435));
}

TEST_CASE("resolve_accelerator rejects a negative compute time naming --compute-time",
          "[accelerator_spec]") {
  const auto w = load_workload("resnet50");
  preset_overrides over;
  over.compute_time_s = -0.1;
  CHECK_THAT(usage_error_message([&] { (void)resolve_accelerator("emulated:h100", w, over); }),
             Contains("--compute-time"));
  preset_overrides zero_batch;
  zero_batch.batch_size = 0;
  CHECK_THAT(
      usage_error_message([&] { (void)resolve_accelerator("emulated:h100", w, zero_batch); }),
      Contains("--batch-size"));
}

TEST_CASE("resolve_accelerator rejects overrides with accelerator none", "[accelerator_spec]") {
  const auto w = load_workload("resnet50");
  preset_overrides batch;
  batch.batch_size = 64;
  preset_overrides compute;
  compute.compute_time_s = 0.1;
  for (const auto& over : {batch, compute}) {
    const auto msg = usage_error_message([&] { (void)resolve_accelerator("none", w, over); });
    CHECK_THAT(msg, Contains("need an accelerator"));
    CHECK_THAT(msg, Contains("emulated:h100"));
  }
}

TEST_CASE("resolve_accelerator of cuda probes the backend and takes the model's batch size, "
          "measuring the compute time",
          "[accelerator_spec]") {
  dlsize::test::use_fake_cuda_module();
  const auto w = load_workload("resnet50");
  const auto a = resolve_accelerator("cuda", w, {});
  CHECK(a.kind == dlsize::config::accelerator_kind::cuda);
  CHECK(a.preset.batch_size == w.network->batch_size);
  CHECK(a.preset.compute_time_s == 0);
  preset_overrides batch;
  batch.batch_size = 32;
  CHECK(resolve_accelerator("cuda", w, batch).preset.batch_size == 32);
  preset_overrides compute;
  compute.compute_time_s = 0.1;
  CHECK_THAT(usage_error_message([&] { (void)resolve_accelerator("cuda", w, compute); }),
             Contains("measured"));
}

TEST_CASE("resolve_accelerator of cuda refuses a workload without model.layers, listing those "
          "with one",
          "[accelerator_spec]") {
  dlsize::test::use_fake_cuda_module();
  const auto msg =
      usage_error_message([] { (void)resolve_accelerator("cuda", load_workload("ssd300"), {}); });
  CHECK_THAT(msg, Contains("workload 'ssd300' has no model.layers"));
  CHECK_THAT(msg, Contains("valid: resnet50, unet3d"));
}

TEST_CASE("parse_calibration accepts a valid calibration", "[accelerator_spec]") {
  const auto p = parse_calibration(minimal_calibration().dump(), "cal.json", "resnet50");
  CHECK(p.name == "h200");
  CHECK(p.batch_size == 256);
  CHECK(p.compute_time_s == Approx(0.1));
  CHECK(p.compute_time_stdev_s == 0.0);
  CHECK_THAT(p.source, Contains("cal.json"));
}

TEST_CASE("parse_calibration rejects a wrong schema, another workload and bad values",
          "[accelerator_spec]") {
  auto schema = minimal_calibration();
  schema["schema"] = "dlsize.report/1";
  CHECK_THAT(calibration_error(schema), Contains("cal.json: schema:"));

  auto workload = minimal_calibration();
  workload["workload"] = "unet3d";
  const auto wl = calibration_error(workload);
  CHECK_THAT(wl, Contains("cal.json: workload:"));
  CHECK_THAT(wl, Contains("unet3d"));

  auto negative = minimal_calibration();
  negative["compute_time_s"] = -0.5;
  CHECK_THAT(calibration_error(negative), Contains("cal.json: compute_time_s:"));

  auto missing = minimal_calibration();
  missing.erase("batch_size");
  CHECK_THAT(calibration_error(missing), Contains("batch_size: missing"));

  CHECK_THAT(usage_error_message([] { (void)parse_calibration("{", "cal.json", "resnet50"); }),
             Contains("cal.json"));
}

TEST_CASE("parse_calibration rejects an unknown key naming its key path", "[accelerator_spec]") {
  auto j = minimal_calibration();
  j["compute_tme_s"] = 0.2;
  const auto msg = calibration_error(j);
  CHECK_THAT(msg, Contains("cal.json: compute_tme_s: unknown key"));
}

TEST_CASE("resolve_accelerator reads a calibration given by file path", "[accelerator_spec]") {
  const temp_dir dir;
  const auto file = dir.path / "h200.json";
  {
    std::ofstream out(file);
    out << minimal_calibration().dump(2);
  }
  const auto w = load_workload("resnet50");
  const auto a = resolve_accelerator("emulated:" + file.string(), w, {});
  CHECK(a.kind == accelerator_kind::emulated);
  CHECK(a.type == "h200");
  CHECK(a.origin == file.string());
  CHECK(a.preset.batch_size == 256);
  CHECK(a.preset.compute_time_s == Approx(0.1));

  // The same file is rejected for another workload, naming the file.
  const auto msg = usage_error_message(
      [&] { (void)resolve_accelerator("emulated:" + file.string(), load_workload("unet3d"), {}); });
  CHECK_THAT(msg, Contains(file.string()));
  CHECK_THAT(msg, Contains("workload"));

  // A missing file is a usage_error naming it.
  const auto missing = (dir.path / "missing.json").string();
  CHECK_THAT(usage_error_message([&] { (void)resolve_accelerator("emulated:" + missing, w, {}); }),
             Contains(missing));
}
