#pragma once
// The interconnect of the servers an accelerator type usually sits in: the defaults of the
// allreduce model (--intra-node-bandwidth, --inter-node-bandwidth, --nics-per-node, the
// per-hop latencies), each with its source. Bandwidths are per direction: NVLink is quoted for
// both directions together (V100 300, A100 600, H100 900 GB/s), so half of it goes each way.
#include <cstdint>
#include <string>

namespace dlsize::config {

struct interconnect_spec {
  const char* accelerator; // the profile's accelerator type: "v100"
  const char* system;      // the server it stands for
  std::uint64_t accelerators_per_node;
  double intra_bytes_per_s; // one accelerator to its peers, per direction
  const char* intra_source;
  double nic_bytes_per_s; // one NIC port, per direction
  std::uint64_t nics_per_node;
  const char* inter_source;
};

// Per-hop latencies of a ring step (NCCL's own tuning model, Ring/Simple protocol).
inline constexpr double kIntraHopLatencyS = 3.4e-6;
inline constexpr double kInterHopLatencyS = 9.6e-6;
inline constexpr const char* kHopLatencySource =
    "NCCL src/graph/tuning.cc hwLat, Ring/Simple: 3.4 us per NVLink hop, 9.6 us per network hop";

// The spec of an accelerator type (v100, a100, h100); null for any other (a calibration's
// GPU), whose bandwidths must then be given.
const interconnect_spec* find_interconnect(const std::string& accelerator_type);

} // namespace dlsize::config
