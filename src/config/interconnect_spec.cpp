#include "config/interconnect_spec.hpp"

#include <array>

namespace dlsize::config {
namespace {

constexpr std::array<interconnect_spec, 3> kSpecs{{
    {"v100", "8 x V100 SXM2 server with EDR InfiniBand (DGX-1, HPE Apollo 6500)", 8, 150e9,
     "NVIDIA Tesla V100 datasheet: NVLink 2 300 GB/s per GPU, both directions together", 12.1e9, 1,
     "EDR InfiniBand 100 Gb/s (4 x 25.78125 Gb/s, 64b/66b): about 12.1 GB/s of data per port "
     "per direction; one port per server, the seed's setting (--nics-per-node to change it)"},
    {"a100", "NVIDIA DGX A100", 8, 300e9,
     "NVIDIA A100 datasheet: NVLink 3 600 GB/s per GPU, both directions together", 25e9, 8,
     "NVIDIA DGX A100 datasheet: 8 x 200 Gb/s HDR InfiniBand (ConnectX-6) for the compute "
     "fabric; 25 GB/s line rate per port per direction"},
    {"h100", "NVIDIA DGX H100", 8, 450e9,
     "NVIDIA H100 SXM datasheet: NVLink 4 900 GB/s per GPU, both directions together", 50e9, 8,
     "NVIDIA DGX H100 datasheet: 8 x 400 Gb/s NDR InfiniBand (ConnectX-7) for the compute "
     "fabric; 50 GB/s line rate per port per direction"},
}};

} // namespace

const interconnect_spec* find_interconnect(const std::string& accelerator_type) {
  for (const auto& s : kSpecs)
    if (accelerator_type == s.accelerator)
      return &s;
  return nullptr;
}

} // namespace dlsize::config
