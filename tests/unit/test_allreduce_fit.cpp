// Unit tests for src/analysis/allreduce_fit.hpp: fitting the allreduce model to all_reduce_perf
// output made from known latencies and bandwidths.
#include <catch2/catch.hpp>

#include <fmt/format.h>

#include "analysis/allreduce_fit.hpp"

namespace {

using namespace dlsize::analysis;

// all_reduce_perf's output (nccl-tests 2.13 layout) for `ranks` ranks spread evenly over `nodes`
// hosts, its out-of-place times made from t = latency + 2(n−1)/n · S / bus and printed as
// nccl-tests prints them (µs to 2 decimals, GB/s).
std::string sweep_text(unsigned ranks, unsigned nodes, double latency_s, double bus) {
  std::string t = "# nThread 1 nGpus 1 minBytes 8 maxBytes 1073741824 step: 2(factor)\n#\n";
  for (unsigned r = 0; r < ranks; ++r)
    t += fmt::format("#  Rank {:2} Group  0 Pid {:6} on {:>10} device {:2} [0x07] NVIDIA "
                     "A100-SXM4-80GB\n",
                     r, 1000 + r, fmt::format("node{:02}", r / (ranks / nodes)),
                     r % (ranks / nodes));
  t += "#       size         count      type   redop    root     time   algbw   busbw #wrong     "
       "time   algbw   busbw #wrong\n";
  const double factor = 2.0 * (ranks - 1) / ranks;
  for (double s = 8; s <= 1 << 30; s *= 2) {
    const double time = latency_s + factor * s / bus;
    const double alg = s / time * 1e-9;
    t += fmt::format("{:12.0f} {:13.0f}     float     sum      -1 {:8.2f} {:7.2f} {:7.2f}      0 "
                     "{:8.2f} {:7.2f} {:7.2f}      0\n",
                     s, s / 4, time * 1e6, alg, alg * factor, time * 1e6, alg, alg * factor);
  }
  return t;
}

} // namespace

TEST_CASE("the fit recovers the per-hop latency and bus bandwidth of a one-node sweep",
          "[allreduce]") {
  // 8 GPUs on NVLink: α = 3.5 µs a hop (L = 2(n−1)·α = 49 µs), 150 GB/s.
  const auto sweep = parse_all_reduce_perf(sweep_text(8, 1, 14 * 3.5e-6, 150e9), "synthetic");
  REQUIRE(sweep.ranks == 8);
  REQUIRE(sweep.nodes == 1);
  REQUIRE(sweep.samples.size() == 28);
  const allreduce_fit f = fit_allreduce(sweep, 0);
  CHECK(f.link == "intra");
  CHECK(f.latency_s == Approx(49e-6).epsilon(0.01));
  CHECK(f.latency_per_hop_s == Approx(3.5e-6).epsilon(0.01));
  CHECK(f.bus_bytes_per_s == Approx(150e9).epsilon(0.01));
  CHECK(f.max_busbw == Approx(150e9).epsilon(0.01));
  CHECK(f.max_relative_residual < 0.01);
}

TEST_CASE("the fit of a two-node sweep solves for the inter-node hop's latency", "[allreduce]") {
  // 2 × 8 GPUs, one EDR port each: 3.4 µs inside a node, α_inter = 9.6 µs, 12.1 GB/s;
  // L = 2(n−N)·3.4 µs + 2(N−1)·9.6 µs = 114.4 µs.
  const double latency = 2 * 14 * 3.4e-6 + 2 * 1 * 9.6e-6;
  const auto sweep = parse_all_reduce_perf(sweep_text(16, 2, latency, 12.1e9), "synthetic");
  REQUIRE(sweep.ranks == 16);
  REQUIRE(sweep.nodes == 2);
  const allreduce_fit f = fit_allreduce(sweep, 3.4e-6);
  CHECK(f.link == "inter");
  CHECK(f.latency_s == Approx(latency).epsilon(0.01));
  CHECK(f.latency_per_hop_s == Approx(9.6e-6).epsilon(0.02));
  CHECK(f.bus_bytes_per_s == Approx(12.1e9).epsilon(0.01));
}

TEST_CASE("twice the bandwidth in the sweep gives twice the fitted bandwidth", "[allreduce]") {
  const auto slow = fit_allreduce(parse_all_reduce_perf(sweep_text(4, 1, 20e-6, 50e9), "a"), 0);
  const auto fast = fit_allreduce(parse_all_reduce_perf(sweep_text(4, 1, 20e-6, 100e9), "b"), 0);
  CHECK(fast.bus_bytes_per_s / slow.bus_bytes_per_s == Approx(2).epsilon(0.01));
  CHECK(fast.latency_s == Approx(slow.latency_s).epsilon(0.02));
}
