#pragma once
// GPU telemetry through NVML, loaded at run time (dlopen of libnvidia-ml.so.1), so dlsize runs
// on hosts without a driver: there NVML is recorded as absent with the reason, never an error.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace dlsize::telemetry {

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
  nlohmann::json devices() const;
  // {"available", "reason"} for the report.
  nlohmann::json status() const;
  // One sample per GPU: utilization, memory used, PCIe rx/tx bytes/s, power W, energy J.
  nlohmann::json sample() const;
  // NVML's index of the GPU at a PCI bus id ("0000:3b:00.0", as CUDA reports it), so that a CUDA
  // device maps to its NVML figures whatever CUDA_VISIBLE_DEVICES does; -1 when unknown.
  int index_of_pci_bus_id(const std::string& bus_id) const;

  // Per GPU over a run, from telemetry points that hold "gpus" (sample()'s arrays): mean
  // utilization, peak memory used, mean PCIe receive bytes/s, mean power, and energy as the
  // difference of the energy counter (null where the GPU has none). Points without "gpus" are
  // skipped; an array, empty without samples.
  static nlohmann::json summarize(const nlohmann::json& points);

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
