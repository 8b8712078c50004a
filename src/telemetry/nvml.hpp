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
  nvml();  // loads and initializes NVML if it is there; never throws
  ~nvml();
  nvml(const nvml&) = delete;
  nvml& operator=(const nvml&) = delete;

  bool available() const { return m_ok; }
  const std::string& absent_reason() const { return m_reason; }
  // Static facts per GPU (name, PCI bus id, memory), for the report's hosts section.
  nlohmann::json devices() const;
  // {"available", "reason"} for the report.
  nlohmann::json status() const {
    return {{"available", m_ok}, {"reason", m_reason.empty() ? nlohmann::json(nullptr) : nlohmann::json(m_reason)}};
  }
  // One sample per GPU: utilization, memory used, PCIe rx/tx bytes/s, power W, energy J.
  nlohmann::json sample() const;

 private:
  struct api;
  void* m_lib = nullptr;
  api* m_api = nullptr;
  bool m_ok = false;
  std::string m_reason;
  std::vector<void*> m_devices;
};

}  // namespace dlsize::telemetry
