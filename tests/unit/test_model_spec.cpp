// Unit tests for src/model/model_spec: the layer lists of the embedded profiles against published
// figures, every layer's shape against an independent walk of the architecture, and the
// errors of bad layer lists.
#include <cstdint>
#include <string>
#include <vector>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include "config/workload.hpp"
#include "model/model_spec.hpp"
#include "test_support.hpp"

namespace {

using namespace dlsize::model;
using Catch::Matchers::Contains;
using dlsize::test::usage_error_message;

struct expected_layer {
  op kind;
  std::vector<std::uint64_t> spatial;
  std::uint64_t channels;
};

// Compares the whole list, naming the first layer that differs.
void check_layers(const model_spec& m, const std::vector<expected_layer>& want) {
  REQUIRE(m.layers.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    INFO("layer " << i << " " << m.layers[i].name << " (" << to_string(m.layers[i].kind) << ") is "
                  << to_string(m.layers[i].out));
    CHECK(m.layers[i].kind == want[i].kind);
    CHECK(m.layers[i].out.spatial == want[i].spatial);
    CHECK(m.layers[i].out.channels == want[i].channels);
  }
}

// ResNet-50 v1.5 as torchvision builds it, walked without the profile.
std::vector<expected_layer> resnet50_walk() {
  std::vector<expected_layer> w;
  std::uint64_t h = 112;
  w.push_back({op::conv, {h, h}, 64});
  w.push_back({op::batch_norm, {h, h}, 64});
  w.push_back({op::relu, {h, h}, 64});
  h = 56;
  w.push_back({op::max_pool, {h, h}, 64});
  const std::uint64_t widths[] = {64, 128, 256, 512}, blocks[] = {3, 4, 6, 3};
  for (int s = 0; s < 4; ++s) {
    for (std::uint64_t b = 0; b < blocks[s]; ++b) {
      const std::uint64_t wd = widths[s], hin = h;
      const std::uint64_t hout = (s > 0 && b == 0) ? h / 2 : h;
      w.push_back({op::conv, {hin, hin}, wd});
      w.push_back({op::batch_norm, {hin, hin}, wd});
      w.push_back({op::relu, {hin, hin}, wd});
      for (op k : {op::conv, op::batch_norm, op::relu})
        w.push_back({k, {hout, hout}, wd});
      for (op k : {op::conv, op::batch_norm})
        w.push_back({k, {hout, hout}, 4 * wd});
      if (b == 0)
        for (op k : {op::conv, op::batch_norm})
          w.push_back({k, {hout, hout}, 4 * wd});
      for (op k : {op::add, op::relu})
        w.push_back({k, {hout, hout}, 4 * wd});
      h = hout;
    }
  }
  w.push_back({op::global_avg_pool, {1, 1}, 2048});
  w.push_back({op::fc, {1, 1}, 1000});
  return w;
}

// MLPerf's UNet3D on a 128^3 patch, walked without the profile.
std::vector<expected_layer> unet3d_walk() {
  std::vector<expected_layer> w;
  auto block = [&](std::uint64_t s, std::uint64_t c) {
    for (op k : {op::conv, op::instance_norm, op::relu})
      w.push_back({k, {s, s, s}, c});
  };
  const std::uint64_t ch[] = {32, 64, 128, 256, 320};
  std::uint64_t s = 128;
  block(s, 32);
  block(s, 32);
  for (int i = 1; i < 5; ++i) {
    s /= 2;
    block(s, ch[i]);
    block(s, ch[i]);
  }
  s /= 2;
  block(s, 320);
  block(s, 320);
  for (int i = 4; i >= 0; --i) {
    s *= 2;
    w.push_back({op::conv_transpose, {s, s, s}, ch[i]});
    w.push_back({op::concat, {s, s, s}, 2 * ch[i]});
    block(s, ch[i]);
    block(s, ch[i]);
  }
  w.push_back({op::conv, {128, 128, 128}, 3});
  return w;
}

model_spec tiny(const std::string& layers_json) {
  const auto model = nlohmann::json::parse(R"({"input": [8, 8, 3], "batch_size": 2, "layers": )" +
                                           layers_json + "}");
  return parse_model(model, "tiny.json");
}

std::string tiny_error(const std::string& layers_json) {
  return usage_error_message([&] { (void)tiny(layers_json); });
}

} // namespace

TEST_CASE("resnet50's layer list has ResNet-50 v1.5's 25,557,032 parameters", "[model]") {
  const auto w = dlsize::config::load_workload("resnet50");
  REQUIRE(w.network);
  CHECK(w.network->params() == 25'557'032);
  CHECK(w.network->params() == w.model["parameters"].get<std::uint64_t>());
}

TEST_CASE("resnet50's layer list costs 4.09 GMAC forward at 224x224 within 0.5 %", "[model]") {
  const auto w = dlsize::config::load_workload("resnet50");
  REQUIRE(w.network);
  // Convolutions and the classifier, counted as torchvision's model card counts them.
  CHECK(w.network->forward_macs() == 4'089'184'256ull);
  CHECK(static_cast<double>(w.network->forward_macs()) == Approx(4.09e9).epsilon(0.005));
  CHECK(w.network->input == shape{3, {224, 224}});
  CHECK(w.network->batch_size == 256);
}

TEST_CASE("resnet50's layer list has 53 convolutions, 53 batch norms and 16 residual adds",
          "[model]") {
  const auto w = dlsize::config::load_workload("resnet50");
  const auto& m = *w.network;
  CHECK(m.count(op::conv) == 53);
  CHECK(m.count(op::batch_norm) == 53);
  CHECK(m.count(op::add) == 16);
  CHECK(m.count(op::fc) == 1);
  CHECK(m.classes() == 1000);
}

TEST_CASE("resnet50's every layer has the shape torchvision's ResNet-50 gives it", "[model]") {
  const auto w = dlsize::config::load_workload("resnet50");
  check_layers(*w.network, resnet50_walk());
}

TEST_CASE("resnet50's bottlenecks wire the projection to the block input and add it", "[model]") {
  const auto w = dlsize::config::load_workload("resnet50");
  const auto& m = *w.network;
  const int proj = m.find("layer2.block0.proj");
  REQUIRE(proj >= 0);
  CHECK(m.layers[static_cast<std::size_t>(proj)].input == m.find("layer1"));
  CHECK(m.layers[static_cast<std::size_t>(proj)].stride == 2);
  const auto& add = m.layers[static_cast<std::size_t>(m.find("layer2.block0.add"))];
  CHECK(add.input == m.find("layer2.block0.bn3"));
  CHECK(add.other == m.find("layer2.block0.proj_bn"));
  const auto& identity = m.layers[static_cast<std::size_t>(m.find("layer2.block1.add"))];
  CHECK(identity.other == m.find("layer2.block0.relu"));
  // The stride of a v1.5 block is on the 3x3, not the first 1x1.
  CHECK(m.layers[static_cast<std::size_t>(m.find("layer2.block0.conv1"))].stride == 1);
  CHECK(m.layers[static_cast<std::size_t>(m.find("layer2.block0.conv2"))].stride == 2);
}

TEST_CASE("unet3d's layer list has the MLPerf UNet3D's 31,190,243 parameters, about 31.19 M",
          "[model]") {
  const auto w = dlsize::config::load_workload("unet3d");
  REQUIRE(w.network);
  CHECK(w.network->params() == 31'190'243);
  CHECK(static_cast<double>(w.network->params()) == Approx(31.19e6).epsilon(0.001));
}

TEST_CASE("unet3d's layer list costs about 477 GMAC forward on a 128^3 patch within 0.5 %",
          "[model]") {
  const auto w = dlsize::config::load_workload("unet3d");
  REQUIRE(w.network);
  CHECK(w.network->forward_macs() == 477'298'688'000ull);
  CHECK(static_cast<double>(w.network->forward_macs()) == Approx(477e9).epsilon(0.005));
  CHECK(w.network->batch_size == 7);
}

TEST_CASE("unet3d's every layer has the shape MLPerf's UNet3D gives it", "[model]") {
  const auto w = dlsize::config::load_workload("unet3d");
  const auto& m = *w.network;
  check_layers(m, unet3d_walk());
  CHECK(m.count(op::conv) == 23);
  CHECK(m.count(op::conv_transpose) == 5);
  CHECK(m.count(op::concat) == 5);
  CHECK(m.classes() == 3);
  const auto& first_join = m.layers[static_cast<std::size_t>(m.find("layers[13]"))];
  CHECK(first_join.kind == op::concat);
  CHECK(first_join.other == m.find("skip4"));
}

TEST_CASE("profiles without model.layers have no network", "[model]") {
  CHECK_FALSE(dlsize::config::load_workload("ssd300").network);
  CHECK_FALSE(dlsize::config::load_workload("cosmoflow").network);
}

TEST_CASE("a conv entry with norm and activation expands into three named layers", "[model]") {
  const auto m = tiny(R"([{"type": "conv", "filters": 4, "kernel": 3, "pad": 1, "bias": true,
                           "norm": "batch_norm", "activation": "relu", "name": "c"},
                          {"type": "global_avg_pool"}, {"type": "fc", "outputs": 5}])");
  REQUIRE(m.layers.size() == 5);
  CHECK(m.layers[0].name == "c.conv");
  CHECK(m.layers[1].name == "c.norm");
  CHECK(m.layers[2].name == "c");
  CHECK(m.layers[0].params == 3 * 3 * 3 * 4 + 4);
  CHECK(m.layers[0].macs == 8 * 8 * 27 * 4);
  CHECK(m.layers[4].params == 4 * 5 + 5);
  CHECK(m.params() == 112 + 8 + 25);
}

TEST_CASE("a dilated conv and a transposed conv get the sizes of their formulas", "[model]") {
  const auto m = tiny(R"([{"type": "conv", "filters": 2, "kernel": 3, "dilation": 2, "pad": 2},
                          {"type": "conv_transpose", "filters": 2, "kernel": 3, "stride": 2, "pad": 1}])");
  CHECK(m.layers[0].out == shape{2, {8, 8}});
  CHECK(m.layers[1].out == shape{2, {15, 15}}); // (8 - 1) x 2 - 2 + 3
  CHECK(m.layers[1].macs == 8 * 8 * 9 * 2 * 2);
}

TEST_CASE("bad layer lists are refused naming the entry and what would be valid", "[model]") {
  CHECK_THAT(tiny_error(R"([{"type": "dense", "outputs": 3}])"),
             Contains("tiny.json: model.layers[0].type: unknown layer type 'dense'") &&
                 Contains("valid: conv"));
  CHECK_THAT(tiny_error(R"([{"type": "conv", "kernel": 3}])"),
             Contains("model.layers[0].filters: missing"));
  CHECK_THAT(tiny_error(R"([{"type": "conv", "filters": 2, "kernel": 3, "stride": 0}])"),
             Contains("model.layers[0].stride: 0 is out of range"));
  CHECK_THAT(tiny_error(R"([{"type": "relu"}, {"type": "add", "with": "nowhere"}])"),
             Contains("model.layers[1].with: no earlier layer is named 'nowhere'"));
  CHECK_THAT(tiny_error(R"([{"type": "conv", "filters": 2, "kernel": 3, "norm": "group_norm"}])"),
             Contains("model.layers[0].norm: 'group_norm' is not a normalization"));
  CHECK_THAT(tiny_error(R"([{"type": "conv", "filters": 2, "kernel": 1, "colour": 1}])"),
             Contains("model.layers[0].colour: unknown key"));
  CHECK_THAT(tiny_error(R"([{"type": "relu", "name": "a"}, {"type": "relu", "name": "a"}])"),
             Contains("'a' names two layers"));
}

TEST_CASE("layer lists whose shapes do not fit are refused naming the layer", "[model]") {
  CHECK_THAT(tiny_error(R"([{"type": "conv", "filters": 2, "kernel": 11}])"),
             Contains("layers[0] (conv): kernel 11") && Contains("larger than its padded input"));
  CHECK_THAT(tiny_error(R"([{"type": "relu", "name": "x"},
                            {"type": "conv", "filters": 5, "kernel": 1},
                            {"type": "add", "with": "x"}])"),
             Contains("layers[2] (add): adds 8x8x3 to 8x8x5: the shapes differ"));
  CHECK_THAT(tiny_error(R"([{"type": "relu", "name": "x"},
                            {"type": "max_pool", "kernel": 2, "stride": 2},
                            {"type": "concat", "with": "x"}])"),
             Contains("(concat): joins 4x4x3 and 8x8x3: the spatial sizes differ"));
}

TEST_CASE("a model block without input or batch size is refused naming the key", "[model]") {
  CHECK_THAT(usage_error_message([] {
               (void)parse_model(
                   nlohmann::json::parse(R"({"batch_size": 1, "layers": [{"type": "relu"}]})"),
                   "m.json");
             }),
             Contains("m.json: model.input: missing"));
  CHECK_THAT(usage_error_message([] {
               (void)parse_model(
                   nlohmann::json::parse(R"({"input": [4, 4, 1], "layers": [{"type": "relu"}]})"),
                   "m.json");
             }),
             Contains("m.json: model.batch_size: missing"));
  CHECK_THAT(usage_error_message([] {
               (void)parse_model(
                   nlohmann::json::parse(
                       R"({"input": [4, 1], "batch_size": 1, "layers": [{"type": "relu"}]})"),
                   "m.json");
             }),
             Contains("model.input: must be [H, W, C] or [D, H, W, C]"));
}
