// Unit tests for the typed calibration (config/calibration_document.hpp,
// config/calibration_json.cpp): a calibration `dlsize calibrate` wrote (through the fake CUDA
// module, tests/unit/data/calibration-fake-gpu.json) and hand-written ones are the same bytes
// read by from_json and written by to_json; calibrate's blocks are typed, others ride along.
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <catch2/catch.hpp>

#include "test_support.hpp"

#include "config/calibration_document.hpp"

using namespace dlsize;
using Catch::Matchers::Contains;

namespace {

std::string calibration_round_trip(const std::string& text) {
  return config::to_json(config::from_json(nlohmann::json::parse(text), "cal.json")).dump(2) + "\n";
}

} // namespace

TEST_CASE("a calibration dlsize calibrate wrote reads back typed and writes the same bytes",
          "[calibration]") {
  std::ifstream in(std::filesystem::path(DLSIZE_SOURCE_DIR) /
                   "tests/unit/data/calibration-fake-gpu.json");
  std::ostringstream s;
  s << in.rdbuf();
  const std::string text = s.str();
  REQUIRE(text.size() > 500);
  CHECK(calibration_round_trip(text) == text);
  const auto d = config::from_json(nlohmann::json::parse(text), "cal.json", "resnet50");
  CHECK(d.accelerator == "fake-gpu");
  CHECK(d.batch_size == 16);
  CHECK(d.compute_time_s == Approx(0.01));
  CHECK(d.precision == "fp16");
  REQUIRE(d.loss);
  CHECK(d.loss->falling);
  REQUIRE(d.measured); // calibrate's shape: typed, nothing left in extra
  CHECK(d.measured->model == "resnet50_v1.5");
  CHECK(d.measured->op_time_ms.at("conv") == Approx(6.0));
  CHECK(d.measured->op_time_steps == 5);
  CHECK(d.extra.empty());
}

TEST_CASE("a hand-written calibration keeps what it gives and gains nothing", "[calibration]") {
  const auto minimal = test::minimal_calibration().dump(2) + "\n";
  CHECK(calibration_round_trip(minimal) == minimal);
  auto j = test::minimal_calibration();
  j["loss"] = {{"first", 7}, {"last", 6}, {"falling", true}}; // integers: not calibrate's shape
  j["measured"] = {{"note", "from the vendor's sheet"}};
  j["steps"] = 100;
  const auto odd = j.dump(2) + "\n";
  CHECK(calibration_round_trip(odd) == odd);
  const auto d = config::from_json(j, "cal.json");
  CHECK_FALSE(d.loss);
  CHECK_FALSE(d.measured);
  CHECK(d.extra.contains("measured"));
  CHECK(d.steps == 100u);
  CHECK_FALSE(d.gpu_name);
}

TEST_CASE("a calibration's fields are checked in order, naming the key", "[calibration]") {
  const auto refused = [](const nlohmann::json& j, std::string_view workload = {}) {
    return test::usage_error_message([&] { (void)config::from_json(j, "cal.json", workload); });
  };
  auto j = test::minimal_calibration();
  CHECK_THAT(refused(j, "unet3d"), Contains("cal.json: workload: calibrated for 'resnet50', but "
                                            "the run's workload is 'unet3d'"));
  j["batch_size"] = 0;
  CHECK_THAT(refused(j, "unet3d"), Contains("workload: calibrated for"));
  CHECK_THAT(refused(j), Contains("batch_size"));
  j = test::minimal_calibration();
  j["compute_time_min_s"] = 0.2;
  j["compute_time_max_s"] = 0.1;
  CHECK_THAT(refused(j), Contains("compute_time_max_s"));
  j["compute_time_max_s"] = 0.3;
  CHECK_THAT(refused(j), Contains("lies outside compute_time_min_s to compute_time_max_s"));
  j = test::minimal_calibration();
  j["loss"] = {{"first", 1}, {"slope", 2}};
  CHECK_THAT(refused(j), Contains("loss.slope"));
}
