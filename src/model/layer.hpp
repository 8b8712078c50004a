#pragma once
// One layer of a model as the training step runs it, after the profile's compact entries
// (blocks, a convolution's norm and activation) are expanded and shapes are inferred. Tensors
// are channels-last per sample (the batch is the step's), with 2 or 3 spatial dimensions.
#include <cstdint>
#include <string>
#include <vector>

namespace dlsize::model {

enum class op {
  conv,           // filters, kernel, stride, pad, dilation, bias
  conv_transpose, // the data gradient of a convolution, used to upsample
  batch_norm,     // per channel over batch and space; affine (2 parameters a channel)
  instance_norm,  // per sample and channel over space; affine
  relu,
  max_pool,        // kernel, stride, pad
  global_avg_pool, // to 1 in every spatial dimension
  fc,              // flattens its input; outputs, bias
  add,             // input + other, same shapes
  concat,          // channels of input, then of other; same spatial shape
};

// "conv", "batch_norm", ... as the profile spells them.
const char* to_string(op o);

// A per-sample tensor shape: channels and spatial dimensions (D, H, W or H, W).
struct shape {
  std::uint64_t channels = 0;
  std::vector<std::uint64_t> spatial;
  std::uint64_t positions() const; // product of the spatial dimensions
  std::uint64_t elements() const { return channels * positions(); }
  bool operator==(const shape&) const = default;
};
// "56x56x256" (spatial, then channels).
std::string to_string(const shape& s);

struct layer {
  op kind = op::relu;
  std::string name;          // given in the profile, or generated ("layers[2].block1.conv2")
  int input = -1;            // index of the layer whose output it reads; -1: the model's input
  int other = -1;            // add, concat: the second input's layer index
  std::uint64_t filters = 0; // conv, conv_transpose: output channels; fc: outputs
  std::uint64_t kernel = 1, stride = 1, pad = 0, dilation = 1;
  bool bias = false;
  shape in, out;
  std::uint64_t params = 0; // trainable parameters
  std::uint64_t macs = 0;   // forward multiply-accumulates per sample
};

} // namespace dlsize::model
