#pragma once
// One of a rank's accelerators for a training run, behind the accelerator interface: the
// pipeline never names the kind it drives.
#include <cstdint>
#include <memory>
#include <string>

#include "accel/accelerator.hpp"
#include "config/accelerator_spec.hpp"
#include "core/defaults.hpp"
#include "model/model_spec.hpp"

namespace dlsize::accel {

struct accelerator_request {
  const config::accelerator_spec* spec = nullptr;         // kind, preset (batch size, compute time)
  const model::model_spec* network = nullptr;             // the model a real GPU trains
  std::string precision = core::defaults::precision_text; // --precision, for a real GPU
  std::uint32_t slots = 2; // a real GPU's staging slots: the prefetch depth + 1
  std::uint64_t seed = 0;  // the accelerator's own (the same whichever rank drives it)
  int local_rank = 0;      // a real GPU is the local rank's among the visible ones
};

// --accelerator cuda: the rank's GPU (throws usage_error when there is none, for a bad
// --precision or a model that does not fit); otherwise an emulated one of the spec's preset.
std::unique_ptr<accelerator> make_accelerator(const accelerator_request& r);

} // namespace dlsize::accel
