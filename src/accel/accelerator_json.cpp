// What a report records of each accelerator (accelerators[].gpu, the accelerator block): the JSON
// of the emulated and the CUDA accelerators' descriptions and of a GPU's step tally.
#include <cmath>

#include "accel/cuda_accelerator.hpp"
#include "accel/emulated.hpp"

namespace dlsize::accel {

nlohmann::json cuda_accelerator::run_details() const {
  return {{"device", describe()}, {"steps", m_tally.to_json()}};
}

nlohmann::json cuda_accelerator::describe() const {
  return {{"kind", "cuda"},
          {"device", m_info.device_name},
          {"pci_bus_id", m_info.pci_bus_id},
          {"precision", to_string(m_precision)},
          {"batch_size", m_batch},
          {"parameters", m_info.params},
          {"slots", m_info.slots},
          {"allreduce_buckets", m_info.buckets},
          {"device_memory_used_bytes", m_info.device_memory_used},
          {"staging_bytes", m_info.staging_bytes},
          {"backend", m_build}};
}

nlohmann::json gpu_tally::to_json() const {
  const double n = steps ? static_cast<double>(steps) : 1.0;
  auto finite = [](double v) {
    return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr);
  };
  return {{"steps", steps},
          {"skipped_steps", skipped},
          {"loss_first", finite(loss_first)},
          {"loss_last", finite(loss_last)},
          {"busy_ms_mean", busy_ms / n},
          {"preprocess_ms_mean", preprocess_ms / n},
          {"forward_ms_mean", forward_ms / n},
          {"backward_ms_mean", backward_ms / n},
          {"optimizer_ms_mean", optimizer_ms / n}};
}

nlohmann::json emulated_accelerator::describe() const {
  return {{"kind", "emulated"},
          {"type", m_type},
          {"compute_time_s", m_model.mean_s()},
          {"compute_time_stdev_s", m_model.stdev_s()},
          {"source", m_source}};
}

} // namespace dlsize::accel
