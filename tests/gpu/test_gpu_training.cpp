// GPU tests of the CUDA backend through the core's cuda_accelerator: gradients of every layer
// kind against finite differences (fp32), the loss falling on a fixed batch, batches staged
// from host bytes by another thread, and the NCCL path on one rank. Tests tagged [sanitize]
// are small enough to run under compute-sanitizer.
#include <atomic>
#include <cmath>
#include <cstddef>
#include <random>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "accel/cuda_accelerator.hpp"
#include "config/workload.hpp"
#include "model/model_spec.hpp"

namespace {

using namespace dlsize::accel;
namespace model = dlsize::model;

model::model_spec tiny_2d() {
  return model::parse_model(
      nlohmann::json::parse(R"({"input": [12, 12, 3], "batch_size": 4, "layers": [
    {"type": "conv", "filters": 8, "kernel": 3, "pad": 1, "bias": true, "norm": "batch_norm", "activation": "relu", "name": "stem"},
    {"type": "max_pool", "kernel": 2, "stride": 2},
    {"type": "bottleneck", "width": 4, "blocks": 2},
    {"type": "conv", "filters": 6, "kernel": 3, "pad": 1, "norm": "instance_norm", "activation": "relu"},
    {"type": "conv_transpose", "filters": 6, "kernel": 2, "stride": 2, "bias": true},
    {"type": "concat", "with": "stem"},
    {"type": "conv", "filters": 8, "kernel": 3, "stride": 2, "pad": 1},
    {"type": "global_avg_pool"},
    {"type": "fc", "outputs": 5}]})"),
      "tiny_2d");
}

model::model_spec tiny_3d() {
  return model::parse_model(
      nlohmann::json::parse(R"({"input": [8, 8, 8, 1], "batch_size": 2, "layers": [
    {"type": "conv", "filters": 4, "kernel": 3, "pad": 1, "norm": "instance_norm", "activation": "relu", "name": "s0"},
    {"type": "conv", "filters": 8, "kernel": 3, "stride": 2, "pad": 1, "norm": "instance_norm", "activation": "relu"},
    {"type": "conv_transpose", "filters": 4, "kernel": 2, "stride": 2, "bias": true},
    {"type": "concat", "with": "s0"},
    {"type": "conv", "filters": 4, "kernel": 3, "pad": 1, "norm": "instance_norm", "activation": "relu"},
    {"type": "conv", "filters": 3, "kernel": 1, "bias": true}]})"),
      "tiny_3d");
}

cuda_options exact(std::uint64_t seed) {
  cuda_options o;
  o.precision = cuda_precision::fp32;
  o.search_algorithms = false;
  o.seed = seed;
  return o;
}

// Central differences of the loss at random parameters against the backward pass; returns the
// share that agree, and lists those that do not.
double gradient_agreement(const model::model_spec& m, std::string& report) {
  cuda_accelerator gpu(m, exact(3));
  gpu.use_synthetic(11);
  const double loss0 = gpu.loss_only();
  REQUIRE(std::isfinite(loss0));
  const std::vector<float> g = gpu.grads();
  std::vector<float> p = gpu.params();
  REQUIRE(g.size() == p.size());
  std::mt19937_64 rng(5);
  int checked = 0, agree = 0;
  std::ostringstream bad;
  for (int k = 0; k < 60; ++k) {
    const std::size_t i = rng() % p.size();
    const float keep = p[i];
    const float eps = 1e-3f * std::max(1.0f, std::fabs(keep));
    p[i] = keep + eps;
    gpu.set_params(p);
    const double up = gpu.loss_only();
    p[i] = keep - eps;
    gpu.set_params(p);
    const double down = gpu.loss_only();
    p[i] = keep;
    const double numeric = (up - down) / (2.0 * eps), analytic = g[i];
    ++checked;
    if (std::fabs(numeric - analytic) <=
        0.05 * std::max(std::fabs(numeric), std::fabs(analytic)) + 3e-4)
      ++agree;
    else
      bad << " [" << i << "] numeric " << numeric << " analytic " << analytic << ";";
  }
  gpu.set_params(p);
  report = bad.str();
  return static_cast<double>(agree) / checked;
}

} // namespace

TEST_CASE("every 2D layer kind's gradients match finite differences in fp32", "[gpu][sanitize]") {
  std::string report;
  const double share = gradient_agreement(tiny_2d(), report);
  INFO("disagreeing parameters:" << report);
  CHECK(share >= 0.9);
}

TEST_CASE("every 3D layer kind's gradients match finite differences in fp32", "[gpu][sanitize]") {
  std::string report;
  const double share = gradient_agreement(tiny_3d(), report);
  INFO("disagreeing parameters:" << report);
  CHECK(share >= 0.9);
}

TEST_CASE("ResNet-50's loss is finite and falls on a fixed batch in fp16", "[gpu]") {
  const auto w = dlsize::config::load_workload("resnet50");
  cuda_options o;
  o.batch_size = 32;
  o.learning_rate = 0.1;
  o.search_algorithms = false;
  cuda_accelerator gpu(*w.network, o);
  gpu.use_synthetic(1);
  std::vector<double> loss;
  for (int s = 0; s < 40; ++s) {
    gpu.step(0);
    INFO("step " << s << " loss " << gpu.last().loss << " scale " << gpu.last().loss_scale);
    REQUIRE(std::isfinite(gpu.last().loss));
    CHECK(gpu.last().busy_ms > 0);
    loss.push_back(gpu.last().loss);
  }
  const double last5 = (loss[35] + loss[36] + loss[37] + loss[38] + loss[39]) / 5;
  INFO("first " << loss.front() << ", mean of the last 5 " << last5);
  CHECK(loss.front() == Approx(std::log(1000.0)).epsilon(0.2));
  CHECK(last5 < 0.7 * loss.front());
}

TEST_CASE("UNet3D trains a 128^3 patch in fp16 with a finite, falling loss", "[gpu]") {
  const auto w = dlsize::config::load_workload("unet3d");
  cuda_options o;
  o.batch_size = 1;
  o.search_algorithms = false;
  cuda_accelerator gpu(*w.network, o);
  gpu.use_synthetic(2);
  double first = 0;
  for (int s = 0; s < 8; ++s) {
    gpu.step(0);
    REQUIRE(std::isfinite(gpu.last().loss));
    if (s == 0)
      first = gpu.last().loss;
  }
  CHECK(gpu.last().loss < first);
}

// [plumbing]: the one test that the CPU stand-in module passes too, so that the rehearsal of
// the GPU check (scripts/gpu-rehearsal.sh) runs this binary end to end.
TEST_CASE("the backend names its GPU and a synthetic step gives a finite loss and busy time",
          "[gpu][plumbing]") {
  cuda_options o;
  o.search_algorithms = false;
  cuda_accelerator gpu(tiny_2d(), o);
  CHECK(gpu.info().device_name[0] != '\0');
  gpu.use_synthetic(1);
  gpu.step(0);
  CHECK(std::isfinite(gpu.last().loss));
  CHECK(gpu.last().busy_ms > 0);
}

TEST_CASE("batches staged from host bytes by a loader thread train in order", "[gpu][sanitize]") {
  const auto m = tiny_2d();
  cuda_options o;
  o.slots = 2;
  o.search_algorithms = false;
  cuda_accelerator gpu(m, o);
  constexpr int kBatches = 6;
  std::atomic<int> submitted{0};
  std::thread loader([&] {
    std::mt19937_64 rng(9);
    for (int b = 0; b < kBatches; ++b) {
      gpu.acquire(static_cast<std::uint64_t>(b));
      for (std::uint32_t i = 0; i < gpu.batch_size(); ++i) {
        std::vector<std::byte> sample(200 + rng() % 400);
        for (auto& x : sample)
          x = static_cast<std::byte>(rng());
        gpu.stage_sample(static_cast<std::uint64_t>(b), i, sample.data(), sample.size());
      }
      gpu.submit(static_cast<std::uint64_t>(b), gpu.batch_size());
      submitted.store(b + 1);
    }
  });
  for (int b = 0; b < kBatches; ++b) {
    while (submitted.load() <= b)
      std::this_thread::yield();
    gpu.step(0);
    CHECK(std::isfinite(gpu.last().loss));
    CHECK(gpu.last().preprocess_ms >= 0);
  }
  loader.join();
}

TEST_CASE("one rank's NCCL allreduce leaves training as it was without NCCL", "[gpu][sanitize]") {
  const auto m = tiny_2d();
  cuda_accelerator alone(m, exact(4)), joined(m, exact(4));
  joined.join(0, 1, cuda_accelerator::nccl_unique_id());
  CHECK(joined.info().buckets >= 1);
  alone.use_synthetic(3);
  joined.use_synthetic(3);
  for (int s = 0; s < 3; ++s) {
    alone.step(0);
    joined.step(0);
    CHECK(joined.last().loss == Approx(alone.last().loss).epsilon(1e-4));
  }
}
