#include <catch2/catch.hpp>

#include "config/calibrate_rules.hpp"
#include "test_support.hpp"

using Catch::Matchers::StartsWith;
using namespace dlsize::config;
using namespace dlsize::test;

namespace {

// A GPU measurement: no allreduce output to fit.
calibrate_request gpu_request() {
  return {.workload = "resnet50", .accelerator = "cuda", .allreduce = ""};
}

template <class Change> std::string calibrate_refusal(Change change) {
  return refusal_after(gpu_request(), change, check_calibrate_request);
}

} // namespace

TEST_CASE("calibrate rules accept a GPU measurement or an allreduce fit", "[calibrate_rules]") {
  CHECK_NOTHROW(check_calibrate_request(gpu_request()));
  auto r = gpu_request();
  r.algorithms = "heuristic";
  r.batch_size = 1'000'000;
  CHECK_NOTHROW(check_calibrate_request(r));
  calibrate_request fit;
  fit.allreduce = "all_reduce_perf.txt";
  fit.algorithms = "anything"; // a fit takes no measurement option
  CHECK_NOTHROW(check_calibrate_request(fit));
}

TEST_CASE("calibrate rules refuse --allreduce with a GPU measurement's options",
          "[calibrate_rules]") {
  CHECK_THAT(calibrate_refusal([](auto& r) { r.allreduce = "out.txt"; }),
             StartsWith("--allreduce: fits a file of nccl-tests output"));
  CHECK_THAT(calibrate_refusal([](auto& r) {
               r.allreduce = "out.txt";
               r.workload.clear();
             }),
             StartsWith("--allreduce: fits a file"));
}

TEST_CASE("calibrate rules require a workload and a real GPU", "[calibrate_rules]") {
  CHECK(calibrate_refusal([](auto& r) { r.workload.clear(); }) ==
        "--workload: required (or --allreduce FILE to fit nccl-tests output)");
  CHECK(calibrate_refusal([](auto& r) { r.accelerator = "emulated:h100"; }) ==
        "--accelerator: calibrate measures a real GPU; 'emulated:h100' is not one. valid: cuda");
}

TEST_CASE("calibrate rules refuse unknown algorithms and batches out of range",
          "[calibrate_rules]") {
  CHECK(calibrate_refusal([](auto& r) { r.algorithms = "fast"; }) ==
        "--algorithms: invalid value 'fast'. valid: search, heuristic");
  CHECK(calibrate_refusal([](auto& r) { r.batch_size = 1'000'001; }) ==
        "--batch-size: valid: 1 to 1,000,000");
}
