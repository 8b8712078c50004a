#include "accel/make_accelerator.hpp"

#include "accel/cuda_accelerator.hpp"
#include "accel/device_select.hpp"
#include "accel/emulated.hpp"

namespace dlsize::accel {

std::unique_ptr<accelerator> make_accelerator(const accelerator_request& r) {
  const auto& preset = r.spec->preset;
  if (r.spec->kind != config::accelerator_kind::cuda)
    return std::make_unique<emulated_accelerator>(
        r.spec->type, compute_model(preset.compute_time_s, preset.compute_time_stdev_s, r.seed),
        preset.source);
  cuda_options co;
  // With one visible GPU per rank the local rank names a device that does not exist.
  const int visible = cuda_backend::get().require_device(-1).device_count;
  co.device = device_for_local_rank(r.local_rank, visible);
  co.batch_size = static_cast<std::uint32_t>(preset.batch_size);
  co.precision = parse_precision(r.precision, "--precision");
  co.slots = r.slots;
  co.seed = r.seed;
  return std::make_unique<cuda_accelerator>(*r.network, co);
}

} // namespace dlsize::accel
