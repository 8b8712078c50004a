// The figures ranks send to rank 0 (an accelerator's figures, an epoch's partial sums) as JSON
// and back: the wire form between ranks, not a report section.
#include <iterator>
#include <stdexcept>

#include "pipeline/step_metrics.hpp"

namespace dlsize::pipeline {

nlohmann::json figures_json(const accelerator_figures& f) {
  return {{"steps", f.steps},
          {"measured_steps", f.measured_steps},
          {"compute_s", f.compute_s},
          {"window_s", f.window_s},
          {"utilization", f.utilization},
          {"measured", f.measured},
          {"data_wait_s", f.data_wait_s},
          {"sync_wait_s", f.sync_wait_s},
          {"comm_s", f.comm_s},
          {"storage_au", f.storage_au},
          {"first_step_wait_s", f.first_step_wait_s},
          {"samples", f.samples},
          {"bytes", f.bytes},
          {"total_samples", f.total_samples},
          {"total_bytes", f.total_bytes},
          {"samples_per_s", f.samples_per_s},
          {"data_wait", f.data_wait.to_json()}};
}

accelerator_figures figures_from_json(const nlohmann::json& j) {
  accelerator_figures f;
  f.steps = j.at("steps").get<std::uint64_t>();
  f.measured_steps = j.at("measured_steps").get<std::uint64_t>();
  f.compute_s = j.at("compute_s").get<double>();
  f.window_s = j.at("window_s").get<double>();
  f.utilization = j.at("utilization").get<double>();
  f.measured = j.at("measured").get<bool>();
  f.data_wait_s = j.at("data_wait_s").get<double>();
  f.sync_wait_s = j.at("sync_wait_s").get<double>();
  f.comm_s = j.value("comm_s", 0.0);
  f.storage_au = j.value("storage_au", f.utilization);
  f.first_step_wait_s = j.at("first_step_wait_s").get<double>();
  f.samples = j.at("samples").get<std::uint64_t>();
  f.bytes = j.at("bytes").get<std::uint64_t>();
  f.total_samples = j.at("total_samples").get<std::uint64_t>();
  f.total_bytes = j.at("total_bytes").get<std::uint64_t>();
  f.samples_per_s = j.at("samples_per_s").get<double>();
  f.data_wait = histogram::from_json(j.at("data_wait"));
  return f;
}

nlohmann::json epoch_partial::to_json() const {
  return nlohmann::json::array({steps, samples, bytes, compute_ns, wait_ns, measured_samples,
                                measured_bytes, begin_ns, end_ns, dlio_compute_ns, dlio_window_ns});
}

epoch_partial epoch_partial::from_json(const nlohmann::json& j) {
  epoch_partial p;
  std::uint64_t* fields[] = {&p.steps,   &p.samples,          &p.bytes,          &p.compute_ns,
                             &p.wait_ns, &p.measured_samples, &p.measured_bytes, &p.begin_ns,
                             &p.end_ns,  &p.dlio_compute_ns,  &p.dlio_window_ns};
  if (!j.is_array() || j.size() != std::size(fields))
    throw std::invalid_argument("epoch partial: 11 numbers expected");
  for (std::size_t i = 0; i < std::size(fields); ++i)
    *fields[i] = j[i].get<std::uint64_t>();
  return p;
}

} // namespace dlsize::pipeline
