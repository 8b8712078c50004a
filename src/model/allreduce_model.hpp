#pragma once
// The time of a data-parallel job's gradient allreduce, from closed forms (docs/metrics.md,
// "Communication"): a flat ring over every accelerator (Thakur, Rabenseifner and Gropp 2005,
// "Optimization of Collective Communication Operations in MPICH"; nccl-tests PERFORMANCE.md),
// or a hierarchical one: reduce-scatter inside each node, a ring allreduce across the nodes over
// their NICs, all-gather inside. Latency per hop as NCCL's own tuning model counts it (intra-
// node hops and inter-node hops apart). Pure arithmetic, tested against the formulas.
#include <cstdint>
#include <string>
#include <string_view>

#include "core/enum_names.hpp"

namespace dlsize::model {

enum class allreduce_algorithm { none, ring, hierarchical };
inline constexpr core::enum_table<allreduce_algorithm, 3> kAllreduceAlgorithmNames{
    {{allreduce_algorithm::none, "none"},
     {allreduce_algorithm::ring, "ring", "one ring over every accelerator"},
     {allreduce_algorithm::hierarchical, "hierarchical", "inside nodes, then across them"}}};
constexpr const auto& names_of(allreduce_algorithm) {
  return kAllreduceAlgorithmNames;
}
std::string to_string(allreduce_algorithm a);
// Throws usage_error naming option and the valid values.
allreduce_algorithm parse_allreduce_algorithm(std::string_view text, std::string_view option);

// Which accelerators share a node: `nodes` nodes of `per_node` accelerators each.
struct job_layout {
  std::uint64_t nodes = 1;
  std::uint64_t per_node = 1;
  std::uint64_t accelerators() const { return nodes * per_node; }
};

// Per direction. intra: one accelerator's bandwidth to its node's peers (NVLink, PCIe);
// inter: one node's NICs together. Latencies are per hop of the ring.
struct fabric {
  double intra_bytes_per_s = 0;
  double inter_bytes_per_s = 0;
  double intra_latency_s = 0;
  double inter_latency_s = 0;
};

// The parts of one allreduce's time, in seconds.
struct allreduce_cost {
  double latency_s = 0; // Σ per-hop latencies
  double intra_s = 0;   // bytes over the intra-node links
  double inter_s = 0;   // bytes over the NICs
  double total_s() const { return latency_s + intra_s + inter_s; }
};

// Ring over n = nodes × per_node: latency 2(n−1) hops, of which 2(N−1) cross nodes;
// bandwidth term 2(n−1)/n · S / B_min, B_min the slowest link the ring uses (intra-node links
// only where per_node > 1, the NICs only where nodes > 1). Throws std::invalid_argument for a
// layout of no accelerators or a used link of no bandwidth.
allreduce_cost ring_allreduce(double bytes, const job_layout& l, const fabric& f);
// Hierarchical, k = per_node, N = nodes: 2(k−1) intra hops and 2(k−1)/k · S / B_intra (reduce-
// scatter then all-gather), plus 2(N−1) inter hops and 2(N−1)/N · S / B_inter (every node's
// NICs carry its k shards of S/k). Throws as ring_allreduce.
allreduce_cost hierarchical_allreduce(double bytes, const job_layout& l, const fabric& f);
// The algorithm's cost; zero for none.
allreduce_cost allreduce_time(allreduce_algorithm a, double bytes, const job_layout& l,
                              const fabric& f);

// What the step waits for: max(0, comm − overlap · backward).
double exposed_time(double comm_s, double backward_s, double overlap);

} // namespace dlsize::model
