#pragma once
// Fits the allreduce model's latency and bandwidth to a measured size sweep: the output of
// nccl-tests' all_reduce_perf (its rank lines and its table; time, algbw and busbw as
// nccl-tests' doc/PERFORMANCE.md defines them: algbw = S / t, busbw = algbw · 2(n−1)/n).
// The model t(S) = L + 2(n−1)/n · S / B is linear in L and 1/B; the fit is least squares on
// relative residuals (weights 1/t²), so the small sizes fix L and the large ones B.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace dlsize::analysis {

struct allreduce_sample {
  double bytes = 0;
  double time_s = 0; // out-of-place
  double algbw = 0;  // bytes/s, as printed (GB/s × 1e9)
  double busbw = 0;
};

struct allreduce_sweep {
  std::uint64_t ranks = 0; // "#  Rank  N ..." lines
  std::uint64_t nodes = 0; // distinct hosts among them
  std::string device;      // the first rank's GPU
  std::vector<allreduce_sample> samples;
};

// Parses all_reduce_perf's output. Throws usage_error naming source for text without rank
// lines or with fewer than three sizes.
allreduce_sweep parse_all_reduce_perf(const std::string& text, const std::string& source);

struct allreduce_fit {
  std::string link;             // "intra" (one node) or "inter" (several)
  double latency_s = 0;         // L
  double latency_per_hop_s = 0; // L over the hops of the link (see fit_allreduce)
  double bus_bytes_per_s = 0;   // B
  double max_busbw = 0;         // the highest busbw printed
  double max_relative_residual = 0;
};

// One node: L = 2(n−1) · α_intra. Several: L = 2(n−N) · intra_hop_latency_s + 2(N−1) · α_inter,
// and α_inter is solved for (at least 0). Throws usage_error when the sweep gives no positive
// bandwidth.
allreduce_fit fit_allreduce(const allreduce_sweep& s, double intra_hop_latency_s);

// The calibration file (dlsize.allreduce-calibration/1) the model reads.
nlohmann::json allreduce_calibration_json(const allreduce_sweep& s, const allreduce_fit& f,
                                          const std::string& source);

} // namespace dlsize::analysis
