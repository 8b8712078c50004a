// Unit tests for the embedded profiles of MLPerf Storage v3.0 (workloads/*.json): every preset
// equals the configuration it cites, and the demand it implies matches the published figures.
#include <cstdint>
#include <string>

#include <catch2/catch.hpp>

#include "config/workload.hpp"
#include "test_support.hpp"

namespace {

using namespace dlsize::config;
using Catch::Matchers::Contains;

// One preset as its v3.0 configuration file sets it (mlcommons/storage configs/dlio/workload,
// the file and commit each profile's source names).
struct cited_preset {
  const char* workload;
  const char* accelerator;
  const char* config; // the file and commit the profile must cite
  std::uint64_t batch;
  double compute_time_s;
  double record_bytes; // what a step reads of one sample
  std::uint64_t records_per_file;
  std::uint64_t files;
  file_layout layout;
  const char* format;
  double au_threshold;
  std::uint64_t epochs;
  const char* mlperf_v3;
};

const cited_preset kCited[] = {
    {"unet3d", "b200", "unet3d_b200.yaml @ 0d75b41708cf30b991186aa58c53890cb3b7956e", 7, 0.162,
     146600628, 1, 168, file_layout::files, "npz", 0.90, 5, "closed"},
    {"retinanet", "b200", "retinanet_b200.yaml @ 11460d004cc3127ba943a79cdc6fa0d9339eb7f8", 24,
     0.04755, 322957, 1, 1170301, file_layout::files, "jpeg", 0.85, 8, "closed"},
    {"retinanet", "mi355", "retinanet_mi355.yaml @ 76f45459b8a0ea67cffff896ae82af96cfcdab6c", 32,
     0.0634, 322957, 1, 1170301, file_layout::files, "jpeg", 0.85, 8, "closed"},
    {"flux", "b200", "flux_b200.yaml @ c25079c2400ca62c360cbf1e970295d0e2250029", 48, 1.35, 2164832,
     288, 4296, file_layout::shards, "parquet", 0.90, 1, "whatif"},
    {"flux", "mi355", "flux_mi355.yaml @ 0b42eb505324d197f48ea1900e2976c32ffa43ef", 72, 2.025,
     2164832, 288, 4296, file_layout::shards, "parquet", 0.90, 1, "whatif"},
    // dlrm: the 160 bytes of the 40 columns read (of a 761-byte row), as the profile says.
    {"dlrm", "b200", "dlrm_b200.yaml @ 0b42eb505324d197f48ea1900e2976c32ffa43ef", 16384, 0.000375,
     160, 4718592, 1024, file_layout::shards, "parquet", 0.70, 1, "whatif"},
    {"dlrm", "mi355", "dlrm_mi355.yaml @ 11460d004cc3127ba943a79cdc6fa0d9339eb7f8", 16384,
     0.0005625, 160, 4718592, 1024, file_layout::shards, "parquet", 0.70, 1, "whatif"},
};

double demand_mib_per_s(const workload_profile& w, const accelerator_preset& a) {
  return static_cast<double>(a.batch_size) * w.sample_bytes_mean / a.compute_time_s / 1048576.0;
}

} // namespace

TEST_CASE("every MLPerf Storage v3.0 preset equals the configuration it cites", "[workload][v3]") {
  for (const auto& c : kCited) {
    INFO(c.workload << " " << c.accelerator);
    const auto w = load_workload(c.workload);
    REQUIRE(w.accelerators.count(c.accelerator) == 1);
    const auto& a = w.accelerators.at(c.accelerator);
    CHECK(a.batch_size == c.batch);
    CHECK(a.compute_time_s == Approx(c.compute_time_s).epsilon(1e-12));
    CHECK(w.sample_bytes_mean == c.record_bytes);
    CHECK(w.records_per_file == c.records_per_file);
    CHECK(w.files == c.files);
    CHECK(w.layout == c.layout);
    CHECK(w.format == c.format);
    CHECK(w.au_threshold == Approx(c.au_threshold));
    CHECK(w.epochs == c.epochs);
    CHECK(a.mlperf_v3 == c.mlperf_v3);
    CHECK_THAT(a.source, Contains(c.config));
  }
}

TEST_CASE("v3.0 demand per accelerator matches the published figures", "[workload][v3]") {
  // REFERENCE: unet3d b200 about 6,041 MiB/s, retinanet b200 about 155.5 MiB/s.
  const auto unet3d = load_workload("unet3d");
  CHECK(demand_mib_per_s(unet3d, unet3d.accelerators.at("b200")) == Approx(6041).epsilon(0.001));
  const auto retinanet = load_workload("retinanet");
  CHECK(demand_mib_per_s(retinanet, retinanet.accelerators.at("b200")) ==
        Approx(155.5).epsilon(0.001));
  // mi355 reads a third more per step in a third more time: about the same demand.
  CHECK(demand_mib_per_s(retinanet, retinanet.accelerators.at("mi355")) ==
        Approx(155.45).epsilon(0.002));
}

TEST_CASE("presets older than v3.0 carry no v3.0 standing", "[workload][v3]") {
  for (const char* name : {"unet3d", "resnet50", "cosmoflow"})
    for (const auto& [type, a] : load_workload(name).accelerators)
      if (type != "b200" || std::string(name) != "unet3d") {
        INFO(name << " " << type);
        CHECK(a.mlperf_v3.empty());
      }
}

TEST_CASE("a profile's mlperf_v3 standing other than closed or whatif is refused, naming the key",
          "[workload][v3]") {
  const std::string text = R"({"name": "t", "dataset": {"layout": "files",
    "sample_bytes": {"mean": 4096}},
    "accelerators": {"b200": {"batch_size": 1, "compute_time_s": 0.1, "mlperf_v3": "open"}}})";
  const std::string msg =
      dlsize::test::usage_error_message([&] { (void)parse_workload(text, "t.json"); });
  CHECK_THAT(msg, Contains("accelerators.b200.mlperf_v3"));
  CHECK_THAT(msg, Contains("valid: closed"));
}
