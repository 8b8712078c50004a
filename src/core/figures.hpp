#pragma once
// The formulas of the sizing figures, each written once (docs/metrics.md links every one here):
// AU, storage AU, the AU a bandwidth allows, demand and the two requirements. Each is the plain
// expression, in the order its callers always computed it, so a figure moved here is the same
// double to the last bit.

namespace dlsize::core {

// part ÷ whole, not capped: a share that may pass 1 (a plan row's AU, the live progress line).
double share(double part, double whole);

// min(1, part ÷ whole): a time share of a window (AU, the allreduce's share of it).
double capped_share(double part, double whole);

// AU, as MLPerf Storage defines it: compute time ÷ the window it fell in, capped at 1. The
// window is the wall time times the accelerators where the compute is summed over them.
double accelerator_utilization(double compute_s, double window_s);

// Storage AU: (compute + the allreduce's exposed time) ÷ window, capped at 1. The verdict's AU:
// the allreduce is the accelerator's own time, no wait for storage. Equals AU without it.
double storage_au(double compute_s, double comm_s, double window_s);

// The AU a storage that delivers deliverable_bytes_per_s allows a job that needs
// required_bytes_per_s at AU 1: min(1, deliverable ÷ required).
double au_at_bandwidth(double deliverable_bytes_per_s, double required_bytes_per_s);

// Demand: the bytes/s the accelerators read at AU 1, samples/s × bytes per sample.
double demand_bytes_per_s(double samples_per_s, double sample_bytes);

// The same demand from one accelerator's batch: batch × bytes per sample ÷ compute time per
// batch (rounded in this order; 0 for a step time that is not above 0).
double batch_demand_bytes_per_s(double batch_size, double sample_bytes, double step_s);

// The requirement a run shows: the bytes/s it read ÷ its AU, the bandwidth it would have read at
// AU 1 (the sizing model's y).
double required_bandwidth(double read_bytes_per_s, double au);

// The bandwidth that keeps AU at the threshold: demand × threshold (plan's requirement).
double bandwidth_at_threshold(double demand_bytes_per_s, double au_threshold);

} // namespace dlsize::core
