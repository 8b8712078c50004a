#pragma once
// A trainable model from a workload profile's `model` block: the input shape, the expanded
// layer list with every layer's output shape, parameters and forward MACs, and the loss. The
// CUDA backend builds its training step from it; tests check it against published figures.
// The format is documented in docs/workloads.md.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "model/layer.hpp"

namespace dlsize::model {

struct model_spec {
  std::string name;
  shape input;                  // per sample, from model.input ([H, W, C] or [D, H, W, C])
  std::uint64_t batch_size = 0; // model.batch_size: samples per step of a real GPU
  std::vector<layer> layers;
  std::string loss = "softmax_cross_entropy";
  std::string source; // the profile, for errors

  std::uint64_t params() const;
  std::uint64_t forward_macs() const; // per sample
  std::uint64_t count(op kind) const;
  // Classes of the loss: the last layer's channels (per position when it has spatial extent).
  std::uint64_t classes() const { return layers.empty() ? 0 : layers.back().out.channels; }
  // Index of the layer called name; -1 when none.
  int find(const std::string& name) const;
};

// Parses model (the profile's `model` object, which must have `layers`); source names the
// profile in errors, which give the key path ("resnet50.json: model.layers[3].filters: ...").
// Throws usage_error for unknown types or keys, bad values and shapes that do not fit.
model_spec parse_model(const nlohmann::json& model, const std::string& source);

// Sets every layer's in/out shape, parameters and MACs from the input shape. Throws
// usage_error naming the layer when a shape does not fit (kernel larger than its input,
// add of different shapes, concat of different spatial sizes).
void infer_shapes(model_spec& m);

} // namespace dlsize::model
