#include "telemetry/nvml.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <optional>

#include <fmt/format.h>

namespace dlsize::telemetry {
// A named namespace, not an anonymous one: nvml::api (a type with linkage) holds these.
namespace nvml_abi {

// The few NVML declarations used (there is no nvml.h on build hosts without a driver). Values
// from NVML's public API: nvmlReturn_t 0 is NVML_SUCCESS; PCIe counters 0 = TX, 1 = RX (KB/s).
using nvml_return = int;
using nvml_device = void*;
struct nvml_utilization {
  unsigned gpu;
  unsigned memory;
};
struct nvml_memory {
  unsigned long long total;
  unsigned long long free;
  unsigned long long used;
};
constexpr nvml_return kSuccess = 0;

} // namespace nvml_abi
using namespace nvml_abi;

struct nvml::api {
  nvml_return (*init)();
  nvml_return (*shutdown)();
  nvml_return (*count)(unsigned*);
  nvml_return (*handle_by_index)(unsigned, nvml_device*);
  nvml_return (*name)(nvml_device, char*, unsigned);
  nvml_return (*utilization)(nvml_device, nvml_utilization*);
  nvml_return (*memory)(nvml_device, nvml_memory*);
  nvml_return (*pcie)(nvml_device, int, unsigned*);
  nvml_return (*power)(nvml_device, unsigned*);
  nvml_return (*energy)(nvml_device, unsigned long long*);
  struct pci_info {
    char bus_id_legacy[16];
    unsigned domain, bus, device, pci_device_id, pci_subsystem_id;
    char bus_id[32];
  };
  nvml_return (*pci)(nvml_device, pci_info*);
  nvml_return (*by_bus_id)(const char*, nvml_device*);
};

nvml::nvml(const std::string& library) : m_library(library) {
  m_lib = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!m_lib) {
    m_reason = library + " not found (no NVIDIA driver on this host)";
    return;
  }
  m_api = new api{};
  auto sym = [&](auto& fn, const char* name) {
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(dlsym(m_lib, name));
    return fn != nullptr;
  };
  const bool ok = sym(m_api->init, "nvmlInit_v2") && sym(m_api->shutdown, "nvmlShutdown") &&
                  sym(m_api->count, "nvmlDeviceGetCount_v2") &&
                  sym(m_api->handle_by_index, "nvmlDeviceGetHandleByIndex_v2") &&
                  sym(m_api->name, "nvmlDeviceGetName") &&
                  sym(m_api->utilization, "nvmlDeviceGetUtilizationRates") &&
                  sym(m_api->memory, "nvmlDeviceGetMemoryInfo") &&
                  sym(m_api->pcie, "nvmlDeviceGetPcieThroughput") &&
                  sym(m_api->power, "nvmlDeviceGetPowerUsage");
  sym(m_api->energy, "nvmlDeviceGetTotalEnergyConsumption");
  sym(m_api->pci, "nvmlDeviceGetPciInfo_v3");
  sym(m_api->by_bus_id, "nvmlDeviceGetHandleByPciBusId_v2");
  if (!ok) {
    m_reason = library + " lacks a needed function (driver too old, or not NVML)";
    return;
  }
  if (const nvml_return rc = m_api->init(); rc != kSuccess) {
    m_reason = fmt::format("nvmlInit_v2 failed with NVML error {}", rc);
    return;
  }
  unsigned n = 0;
  if (m_api->count(&n) != kSuccess)
    n = 0;
  for (unsigned i = 0; i < n; ++i) {
    nvml_device d = nullptr;
    if (m_api->handle_by_index(i, &d) == kSuccess)
      m_devices.push_back(d);
  }
  m_ok = true;
  if (m_devices.empty())
    m_reason = "NVML found no GPU";
}

nvml::~nvml() {
  if (m_ok)
    m_api->shutdown();
  delete m_api;
  if (m_lib)
    dlclose(m_lib);
}

std::vector<gpu_device> nvml::devices() const {
  std::vector<gpu_device> out;
  for (std::size_t i = 0; i < m_devices.size(); ++i) {
    char name[96] = {};
    m_api->name(m_devices[i], name, sizeof name);
    nvml_memory mem{};
    m_api->memory(m_devices[i], &mem);
    gpu_device d;
    d.index = std::uint64_t{i};
    d.name = std::string(name);
    d.memory_bytes = std::uint64_t{mem.total};
    api::pci_info pci{};
    if (m_api->pci && m_api->pci(m_devices[i], &pci) == kSuccess)
      d.pci_bus_id = std::string(pci.bus_id);
    out.push_back(std::move(d));
  }
  return out;
}

std::vector<gpu_sample> nvml::sample() const {
  std::vector<gpu_sample> out;
  for (std::size_t i = 0; i < m_devices.size(); ++i) {
    gpu_sample s;
    s.index = std::uint64_t{i};
    nvml_utilization u{};
    if (m_api->utilization(m_devices[i], &u) == kSuccess) {
      s.utilization = u.gpu / 100.0;
      s.memory_utilization = u.memory / 100.0;
    }
    nvml_memory mem{};
    if (m_api->memory(m_devices[i], &mem) == kSuccess)
      s.memory_used_bytes = std::uint64_t{mem.used};
    unsigned kbs = 0;
    if (m_api->pcie(m_devices[i], 1, &kbs) == kSuccess)
      s.pcie_rx_bytes_per_s = kbs * 1024.0;
    if (m_api->pcie(m_devices[i], 0, &kbs) == kSuccess)
      s.pcie_tx_bytes_per_s = kbs * 1024.0;
    unsigned mw = 0;
    if (m_api->power(m_devices[i], &mw) == kSuccess)
      s.power_w = mw / 1000.0;
    unsigned long long mj = 0;
    if (m_api->energy && m_api->energy(m_devices[i], &mj) == kSuccess)
      s.energy_j = static_cast<double>(mj) / 1000.0;
    out.push_back(std::move(s));
  }
  return out;
}

int nvml::index_of_pci_bus_id(const std::string& bus_id) const {
  if (!m_ok || !m_api->by_bus_id)
    return -1;
  nvml_device d = nullptr;
  if (m_api->by_bus_id(bus_id.c_str(), &d) != kSuccess)
    return -1;
  for (std::size_t i = 0; i < m_devices.size(); ++i)
    if (m_devices[i] == d)
      return static_cast<int>(i);
  return -1;
}

namespace {

struct gpu_totals {
  double util = 0, rx = 0, power = 0;
  std::uint64_t n_util = 0, n_rx = 0, n_power = 0;
  double mem_max = -1;
  std::optional<double> energy_first, energy_last;

  void add(const gpu_sample& g) {
    const auto sum = [](const field<double>& f, double& total, std::uint64_t& n) {
      if (f.has_value()) {
        total += *f;
        ++n;
      }
    };
    sum(g.utilization, util, n_util);
    sum(g.pcie_rx_bytes_per_s, rx, n_rx);
    sum(g.power_w, power, n_power);
    if (g.memory_used_bytes.has_value())
      mem_max = std::max(mem_max, static_cast<double>(*g.memory_used_bytes));
    if (g.energy_j.has_value()) {
      if (!energy_first)
        energy_first = *g.energy_j;
      energy_last = *g.energy_j;
    }
  }
};

field<double> mean(double sum, std::uint64_t n) {
  return n ? field<double>(sum / static_cast<double>(n)) : field<double>::null();
}

} // namespace

std::vector<gpu_summary> nvml::summarize(const std::vector<std::vector<gpu_sample>>& points) {
  std::vector<gpu_totals> gpus;
  for (const auto& p : points)
    for (const auto& g : p) {
      const auto i = static_cast<std::size_t>(g.index.value_or(0));
      if (i >= gpus.size())
        gpus.resize(i + 1);
      gpus[i].add(g);
    }
  std::vector<gpu_summary> out;
  for (std::size_t i = 0; i < gpus.size(); ++i) {
    const gpu_totals& a = gpus[i];
    gpu_summary s;
    s.index = std::uint64_t{i};
    s.utilization_mean = mean(a.util, a.n_util);
    s.memory_used_max_bytes = a.mem_max < 0 ? field<double>::null() : field<double>(a.mem_max);
    s.pcie_rx_bytes_per_s_mean = mean(a.rx, a.n_rx);
    s.power_w_mean = mean(a.power, a.n_power);
    s.energy_j =
        a.energy_first ? field<double>(*a.energy_last - *a.energy_first) : field<double>::null();
    out.push_back(std::move(s));
  }
  return out;
}

nvml_status nvml::status() const {
  nvml_status s;
  s.available = m_ok;
  s.reason = m_reason.empty() ? field<std::string>::null() : field<std::string>(m_reason);
  return s;
}

} // namespace dlsize::telemetry
