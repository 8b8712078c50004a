#pragma once
// GPU telemetry through NVML, loaded at run time (dlopen of libnvidia-ml.so.1), so dlsize runs
// on hosts without a driver: there NVML is recorded as absent with the reason, never an error.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/field.hpp"

namespace dlsize::telemetry {

// The report records these in system.hosts[] (gpus, nvml), in each timeseries point (gpus) and in
// a real GPU's row (its nvml summary); their keys are listed in report/bench_report_json.cpp.
struct gpu_device { // a GPU's static facts
  field<std::uint64_t> index;
  field<std::string> name, pci_bus_id; // pci_bus_id absent where NVML has no such call
  field<std::uint64_t> memory_bytes;
  nlohmann::json extra = nlohmann::json::object();
};

struct gpu_sample { // one GPU now; a figure NVML does not give is absent
  field<std::uint64_t> index;
  field<double> utilization, memory_utilization; // shares
  field<std::uint64_t> memory_used_bytes;
  field<double> pcie_rx_bytes_per_s, pcie_tx_bytes_per_s, power_w, energy_j;
  nlohmann::json extra = nlohmann::json::object();
};

struct gpu_summary { // one GPU over a run (nvml::summarize); null where no sample had it
  field<std::uint64_t> index;
  field<double> utilization_mean, memory_used_max_bytes, pcie_rx_bytes_per_s_mean, power_w_mean;
  field<double> energy_j; // the energy counter's difference
  nlohmann::json extra = nlohmann::json::object();
};

struct nvml_status { // how GPUs were seen
  field<bool> available;
  field<std::string> reason; // null when available
  nlohmann::json extra = nlohmann::json::object();
};

class nvml {
public:
  nvml() : nvml("libnvidia-ml.so.1") {} // loads and initializes NVML if it is there
  // The same with another library file (tests); never throws.
  explicit nvml(const std::string& library);
  ~nvml();
  nvml(const nvml&) = delete;
  nvml& operator=(const nvml&) = delete;

  bool available() const { return m_ok; }
  const std::string& absent_reason() const { return m_reason; }
  // Static facts per GPU (name, PCI bus id, memory), for the report's hosts section.
  std::vector<gpu_device> devices() const;
  nvml_status status() const;
  // One sample per GPU: utilization, memory used, PCIe rx/tx bytes/s, power W, energy J.
  std::vector<gpu_sample> sample() const;
  // NVML's index of the GPU at a PCI bus id ("0000:3b:00.0", as CUDA reports it), so that a CUDA
  // device maps to its NVML figures whatever CUDA_VISIBLE_DEVICES does; -1 when unknown.
  int index_of_pci_bus_id(const std::string& bus_id) const;

  // Per GPU over a run, from each telemetry point's samples (sample()'s): mean utilization, peak
  // memory used, mean PCIe receive bytes/s, mean power, and energy as the difference of the
  // energy counter (null where the GPU has none); empty without samples.
  static std::vector<gpu_summary> summarize(const std::vector<std::vector<gpu_sample>>& points);

private:
  struct api;
  void* m_lib = nullptr;
  api* m_api = nullptr;
  bool m_ok = false;
  std::string m_library;
  std::string m_reason;
  std::vector<void*> m_devices;
};

} // namespace dlsize::telemetry
