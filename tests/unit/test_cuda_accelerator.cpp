// Unit tests for src/accel/cuda_accelerator, cuda_backend and calibrate on the fake module of
// tests/modules: the core side of the CUDA backend without a GPU. The fake checks the model
// the core sends and the order of slot calls, as the real module does.
#include <stdlib.h>

#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "accel/calibrate.hpp"
#include "accel/cuda_accelerator.hpp"
#include "accel/cuda_backend.hpp"
#include "config/accelerator_spec.hpp"
#include "config/workload.hpp"
#include "test_support.hpp"

namespace {

using namespace dlsize::accel;
namespace model = dlsize::model;
using Catch::Matchers::Contains;
using dlsize::test::usage_error_message;

const model::model_spec& resnet50() {
  static const auto w = dlsize::config::load_workload("resnet50");
  return *w.network;
}

cuda_options small(std::uint32_t slots = 2) {
  dlsize::test::use_fake_cuda_module();
  cuda_options o;
  o.batch_size = 4;
  o.slots = slots;
  return o;
}

} // namespace

TEST_CASE("to_abi hands the module every layer with its shapes, wiring and parameters", "[cuda]") {
  const auto& m = resnet50();
  const cuda_model_abi a = to_abi(m);
  REQUIRE(a.model.layer_count == m.layers.size());
  CHECK(a.model.layers == a.layers.data());
  CHECK(a.model.params == 25'557'032);
  CHECK(a.model.classes == 1000);
  CHECK(a.model.rank == 2);
  CHECK(a.model.input_channels == 3);
  CHECK(a.model.input_spatial[0] == 224);
  CHECK(a.model.input_spatial[2] == 1);
  const int add = m.find("layer1.block0.add");
  const auto& l = a.layers[static_cast<std::size_t>(add)];
  CHECK(l.op == DLSIZE_CUDA_ADD);
  CHECK(l.input == m.find("layer1.block0.bn3"));
  CHECK(l.other == m.find("layer1.block0.proj_bn"));
  CHECK(a.layers[0].op == DLSIZE_CUDA_CONV);
  CHECK(a.layers[0].kernel == 7);
  CHECK(a.layers[0].out_spatial[0] == 112);
  CHECK(a.layers.back().op == DLSIZE_CUDA_FC);
  CHECK(a.layers.back().bias == 1);
}

TEST_CASE("the ABI's layer kinds keep the order of model::op", "[cuda]") {
  CHECK(static_cast<int>(model::op::conv_transpose) == DLSIZE_CUDA_CONV_TRANSPOSE);
  CHECK(static_cast<int>(model::op::instance_norm) == DLSIZE_CUDA_INSTANCE_NORM);
  CHECK(static_cast<int>(model::op::global_avg_pool) == DLSIZE_CUDA_GLOBAL_AVG_POOL);
  CHECK(static_cast<int>(model::op::concat) == DLSIZE_CUDA_CONCAT);
}

TEST_CASE("a sample is staged as a source 1/8 larger than the input in each spatial dimension",
          "[cuda]") {
  CHECK(staged_bytes_per_sample(resnet50()) == 252 * 252 * 3);
  CHECK(staged_bytes_per_sample(*dlsize::config::load_workload("unet3d").network) ==
        144ull * 144 * 144);
}

TEST_CASE("a cuda accelerator takes batches in order through its slots and reports busy time",
          "[cuda]") {
  cuda_accelerator gpu(resnet50(), small());
  CHECK(gpu.kind() == "cuda");
  CHECK(gpu.device() == "cuda:Fake GPU");
  CHECK(gpu.batch_size() == 4);
  std::vector<std::byte> sample(1000, std::byte{7});
  // Two batches ahead, as a prefetch depth of 2 allows, then steps in order.
  for (std::uint64_t b = 0; b < 2; ++b) {
    gpu.acquire(b);
    for (std::uint32_t i = 0; i < 4; ++i)
      gpu.stage_sample(b, i, sample.data(), sample.size());
    gpu.submit(b, 4);
  }
  gpu.step(0);
  CHECK(gpu.last_busy_ns() == 10'000'000);
  gpu.acquire(2); // slot 0 again, free since step 0
  for (std::uint32_t i = 0; i < 4; ++i)
    gpu.stage_sample(2, i, sample.data(), sample.size());
  gpu.submit(2, 4);
  gpu.step(0);
  gpu.step(0);
  CHECK(gpu.last().loss < 6.9);
  const auto d = gpu.describe();
  CHECK(d["kind"] == "cuda");
  CHECK(d["precision"] == "fp16");
  CHECK(d["parameters"] == 25'557'032);
}

TEST_CASE("a cuda accelerator's misuse of slots is an error naming the slot", "[cuda]") {
  cuda_accelerator gpu(resnet50(), small(1));
  std::vector<std::byte> sample(10, std::byte{1});
  CHECK_THAT(usage_error_message([&] { gpu.step(0); }), Contains("slot 0, which holds no batch"));
  CHECK_THAT(usage_error_message([&] { gpu.stage_sample(0, 0, sample.data(), sample.size()); }),
             Contains("before acquire_slot"));
  gpu.acquire(0);
  gpu.stage_sample(0, 0, sample.data(), sample.size());
  CHECK_THAT(usage_error_message([&] { gpu.submit(0, 4); }), Contains("sample 1 was not staged"));
  CHECK_THAT(usage_error_message([&] { gpu.stage_sample(0, 9, sample.data(), sample.size()); }),
             Contains("sample index 9 of a batch of 4"));
}

TEST_CASE("a cuda accelerator passes NCCL id bytes through and refuses a bad rank", "[cuda]") {
  cuda_accelerator gpu(resnet50(), small());
  const auto id = cuda_accelerator::nccl_unique_id();
  CHECK(id.size() == DLSIZE_CUDA_NCCL_ID_BYTES);
  gpu.join(0, 2, id);
  CHECK(gpu.info().buckets == 4);
  CHECK_THAT(usage_error_message([&] { gpu.join(2, 2, id); }), Contains("rank 2 of 2"));
  CHECK_THAT(usage_error_message([&] { gpu.join(0, 2, std::vector<std::uint8_t>(5)); }),
             Contains("5 bytes, needs 128"));
}

TEST_CASE("a cuda accelerator reads and writes parameters as fp32 in layer order", "[cuda]") {
  cuda_accelerator gpu(resnet50(), small());
  auto p = gpu.params();
  REQUIRE(p.size() == 25'557'032);
  p[3] = 2.0f;
  gpu.set_params(p);
  CHECK(gpu.params()[3] == 2.0f);
  gpu.use_synthetic(1);
  CHECK(gpu.loss_only() > 0);
  CHECK(gpu.grads().size() == p.size());
}

TEST_CASE("a device the machine lacks is refused naming the devices there are", "[cuda]") {
  auto o = small();
  o.device = 3;
  CHECK_THAT(usage_error_message([&] { cuda_accelerator gpu(resnet50(), o); }),
             Contains("--accelerator cuda: no device 3: this machine has 1 (0 to 0)"));
}

TEST_CASE("explain_dlopen_error names a missing library, a non-module and a symbol mismatch",
          "[cuda]") {
  const std::filesystem::path mod = "/opt/x/dlsize-cuda.so";
  CHECK_THAT(explain_dlopen_error(
                 mod, "libcudnn.so.9: cannot open shared object file: No such file or directory"),
             Contains("needs the library libcudnn.so.9") && Contains("LD_LIBRARY_PATH"));
  CHECK_THAT(explain_dlopen_error(mod, "/opt/x/dlsize-cuda.so: invalid ELF header"),
             Contains("is not a loadable module"));
  CHECK_THAT(
      explain_dlopen_error(mod, "/opt/x/dlsize-cuda.so: undefined symbol: ncclCommInitRankConfig"),
      Contains("does not match the installed CUDA, cuDNN, cuBLAS or NCCL"));
}

TEST_CASE("a failed module call maps driver, device and argument errors to usage, others to run "
          "failures",
          "[cuda]") {
  dlsize_cuda_status st{};
  std::snprintf(st.message, sizeof st.message, "no NVIDIA driver");
  CHECK_THROWS_AS(throw_cuda_status(DLSIZE_CUDA_NO_DRIVER, st, "probe"), dlsize::usage_error);
  CHECK_THROWS_AS(throw_cuda_status(DLSIZE_CUDA_OUT_OF_MEMORY, st, "create"), dlsize::usage_error);
  CHECK_THROWS_AS(throw_cuda_status(DLSIZE_CUDA_FAILED, st, "step"), dlsize::run_error);
}

TEST_CASE("summarize gives mean, sample stdev and nearest-rank order statistics", "[calibrate]") {
  std::vector<double> t;
  for (int i = 1; i <= 20; ++i)
    t.push_back(i);
  const time_summary s = summarize(t);
  CHECK(s.mean == Approx(10.5));
  CHECK(s.stdev == Approx(5.916079783));
  CHECK(s.min == 1);
  CHECK(s.median == 10);
  CHECK(s.p95 == 19);
  CHECK(s.max == 20);
  CHECK(summarize({0.25}).stdev == 0);
  CHECK_THAT(usage_error_message([] { (void)summarize({}); }), Contains("no measured steps"));
}

TEST_CASE("accelerator_slug makes a calibration name of a GPU name", "[calibrate]") {
  CHECK(accelerator_slug("NVIDIA H200") == "nvidia-h200");
  CHECK(accelerator_slug("NVIDIA A100-SXM4-80GB") == "nvidia-a100-sxm4-80gb");
  CHECK(accelerator_slug("  ") == "gpu");
}

TEST_CASE("calibrate writes a calibration that --accelerator emulated:FILE accepts",
          "[calibrate]") {
  calibrate_options c;
  c.cuda = small();
  c.workload = dlsize::config::load_workload("resnet50");
  c.steps = 5;
  c.warmup = 2;
  const auto cal = to_json(calibrate(c));
  CHECK(cal["schema"] == "dlsize.calibration/1");
  CHECK(cal["accelerator"] == "fake-gpu");
  CHECK(cal["gpu_name"] == "Fake GPU");
  CHECK(cal["precision"] == "fp16");
  CHECK(cal["batch_size"] == 4);
  CHECK(cal["steps"] == 5);
  CHECK(cal["compute_time_s"].get<double>() == Approx(0.010));
  CHECK(cal["samples_per_s"].get<double>() == Approx(400));
  CHECK(cal["loss"]["falling"] == true);
  // Wall to wall includes the host's time around the steps, so it is at most the busy rate.
  const auto& m = cal["measured"];
  CHECK(m["samples_per_s_event"].get<double>() == Approx(400));
  CHECK(m["samples_per_s_wall"].get<double>() > 0);
  CHECK(m["samples_per_s_wall"].get<double>() <= m["samples_per_s_event"].get<double>() * 1.01);
  CHECK(m["op_time_ms"]["conv"].get<double>() == Approx(6.0));
  CHECK(m["op_time_ms"]["batch_norm"].get<double>() == Approx(2.0));
  CHECK_FALSE(m["op_time_ms"].contains("fc"));
  // Read back typed and written again, the calibration is the same bytes.
  CHECK(to_json(dlsize::config::from_json(cal, "cal.json")).dump(2) == cal.dump(2));
  const auto p = dlsize::config::parse_calibration(cal.dump(), "cal.json", "resnet50");
  CHECK(p.name == "fake-gpu");
  CHECK(p.compute_time_s == Approx(0.010));
  CHECK(p.gpu_name == "Fake GPU");
  CHECK(p.precision == "fp16");
  CHECK_THAT(p.source,
             Contains("dlsize calibrate on cuda:0 Fake GPU, fp16, batch 4, 5 steps after 2"));
}

TEST_CASE("calibrate refuses a workload without layers and a zero step count", "[calibrate]") {
  calibrate_options c;
  c.cuda = small();
  c.workload = dlsize::config::load_workload("bert-large");
  CHECK_THAT(usage_error_message([&] { (void)calibrate(c); }),
             Contains("'bert-large' has no model.layers"));
  c.workload = dlsize::config::load_workload("resnet50");
  c.steps = 0;
  CHECK_THAT(usage_error_message([&] { (void)calibrate(c); }), Contains("--steps"));
}

TEST_CASE("a joined rank whose peer never answers fails after the NCCL deadline naming itself",
          "[cuda]") {
  cuda_accelerator gpu(resnet50(), small());
  gpu.join(1, 2, cuda_accelerator::nccl_unique_id());
  gpu.use_synthetic(1);
  ::setenv("DLSIZE_FAKE_CUDA", "peer_hang", 1);
  ::setenv("DLSIZE_NCCL_TIMEOUT_S", "0.2", 1);
  const auto t0 = std::chrono::steady_clock::now();
  std::string what;
  try {
    gpu.step(0);
  } catch (const dlsize::run_error& e) {
    what = e.what();
  }
  const double waited =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  ::unsetenv("DLSIZE_FAKE_CUDA");
  ::unsetenv("DLSIZE_NCCL_TIMEOUT_S");
  CHECK_THAT(what, Contains("rank 1 of 2: the step's gradient allreduce did not finish within "
                            "0.2 s"));
  CHECK_THAT(what, Contains("communicator was aborted"));
  CHECK(waited >= 0.2);
  CHECK(waited < 5);
}
