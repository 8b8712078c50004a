#include "allreduce_options.hpp"

namespace dlsize::cli {

void add_allreduce_options(CLI::App& cmd, config::allreduce_request& r, bool bench) {
  cmd.add_option("--allreduce", r.algorithm,
                 "Model the gradient allreduce after every step: none, ring (one ring over every "
                 "accelerator), hierarchical (inside nodes, across them over the NICs, inside); "
                 "implies --sync-steps");
  cmd.add_option("--allreduce-dtype", r.dtype,
                 "Bytes per gradient: fp32 (DDP's, under AMP too), fp16, bf16");
  cmd.add_option("--allreduce-overlap", r.overlap,
                 "Fraction of the backward pass (2/3 of the step) the allreduce hides behind "
                 "(default 0: all of it exposed)");
  cmd.add_option("--intra-node-bandwidth", r.intra_bandwidth,
                 "One accelerator's bandwidth to its node's peers per direction, e.g. 150GB/s "
                 "(default: the accelerator type's NVLink)");
  cmd.add_option("--inter-node-bandwidth", r.inter_bandwidth,
                 "One NIC port's data rate per direction, e.g. 100Gb/s or 12.1GB/s (default: the "
                 "accelerator type's server)");
  cmd.add_option("--nics-per-node", r.nics_per_node,
                 "NIC ports per node the allreduce uses (default: the accelerator type's server)");
  cmd.add_option("--intra-node-latency", r.intra_latency,
                 "Latency per intra-node ring hop (default 3.4us, NCCL's tuning model)");
  cmd.add_option("--inter-node-latency", r.inter_latency,
                 "Latency per inter-node ring hop (default 9.6us, NCCL's tuning model)");
  cmd.add_option("--allreduce-calibration", r.calibration,
                 "Fitted latency and bandwidth from dlsize calibrate --allreduce (files, comma-"
                 "separated: one per link)");
  cmd.add_option("--accelerators-per-node", r.accelerators_per_node,
                 bench ? "Declares nodes of this many accelerators on this one host, for the "
                         "allreduce model (16 accelerators as 2 x 8 or 4 x 4)"
                       : "Accelerators per node of the efficiency curve (default: the accelerator "
                         "type's server)");
  if (bench)
    cmd.add_option("--ranks-per-node", r.ranks_per_node,
                   "Declares which ranks share a node on this one host (consecutive ranks), for "
                   "the allreduce model");
}

} // namespace dlsize::cli
