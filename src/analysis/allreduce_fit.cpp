#include "analysis/allreduce_fit.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "config/allreduce_config.hpp"
#include "core/error.hpp"

namespace dlsize::analysis {
namespace {

std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> w;
  for (std::string s; in >> s;)
    w.push_back(s);
  return w;
}

std::size_t column(const std::vector<std::string>& head, const std::string& name) {
  const auto it = std::find(head.begin(), head.end(), name);
  return it == head.end() ? SIZE_MAX : static_cast<std::size_t>(it - head.begin());
}

bool number(const std::string& s, double& v) {
  char* end = nullptr;
  v = std::strtod(s.c_str(), &end);
  return end && *end == '\0' && std::isfinite(v);
}

} // namespace

allreduce_sweep parse_all_reduce_perf(const std::string& text, const std::string& source) {
  allreduce_sweep s;
  std::set<std::string> hosts;
  std::size_t c_size = SIZE_MAX, c_time = SIZE_MAX, c_alg = SIZE_MAX, c_bus = SIZE_MAX;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    auto w = words(line);
    if (w.empty())
      continue;
    if (w[0] == "#") {
      w.erase(w.begin());
      // "#  Rank  0 Group  0 Pid 1234 on node01 device  0 [0x07] NVIDIA A100-SXM4-80GB"
      const std::size_t on = column(w, "on");
      if (!w.empty() && w[0] == "Rank" && on + 1 < w.size()) {
        ++s.ranks;
        hosts.insert(w[on + 1]);
        const std::size_t bracket = on + 4;
        if (s.device.empty() && bracket + 1 < w.size())
          for (std::size_t i = bracket + 1; i < w.size(); ++i)
            s.device += (s.device.empty() ? "" : " ") + w[i];
      } else if (column(w, "size") == 0 && column(w, "busbw") != SIZE_MAX) {
        // The header's first time/algbw/busbw are the out-of-place ones; data rows align
        // with it whether or not the version prints a root column.
        c_size = 0;
        c_time = column(w, "time");
        c_alg = column(w, "algbw");
        c_bus = column(w, "busbw");
      }
      continue;
    }
    if (c_bus == SIZE_MAX || c_bus >= w.size())
      continue;
    allreduce_sample p;
    double us = 0, alg = 0, bus = 0;
    if (!number(w[c_size], p.bytes) || !number(w[c_time], us) || !number(w[c_alg], alg) ||
        !number(w[c_bus], bus))
      continue;
    p.time_s = us * 1e-6;
    p.algbw = alg * 1e9;
    p.busbw = bus * 1e9;
    if (p.bytes > 0 && p.time_s > 0)
      s.samples.push_back(p);
  }
  s.nodes = hosts.size();
  if (s.ranks == 0)
    throw usage_error(fmt::format("--allreduce: '{}' has no '#  Rank N ... on HOST' lines: not "
                                  "the output of nccl-tests' all_reduce_perf",
                                  source));
  if (s.ranks < 2)
    throw usage_error(fmt::format(
        "--allreduce: '{}' is a run of one rank, which moves no data. valid: a run of 2 or more",
        source));
  if (s.samples.size() < 3)
    throw usage_error(fmt::format("--allreduce: '{}' has {} sizes in its table. valid: a sweep "
                                  "of at least 3 (all_reduce_perf -b 8 -e 1G -f 2)",
                                  source, s.samples.size()));
  return s;
}

allreduce_fit fit_allreduce(const allreduce_sweep& s, double intra_hop_latency_s) {
  const auto n = static_cast<double>(s.ranks), nodes = static_cast<double>(s.nodes);
  const double factor = 2 * (n - 1) / n;
  // Weighted least squares of t = L + x · c, x = factor · S, weights 1/t².
  double sw = 0, sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (const auto& p : s.samples) {
    const double w = 1 / (p.time_s * p.time_s), x = factor * p.bytes;
    sw += w;
    sx += w * x;
    sy += w * p.time_s;
    sxx += w * x * x;
    sxy += w * x * p.time_s;
  }
  const double det = sw * sxx - sx * sx;
  const double c = det > 0 ? (sw * sxy - sx * sy) / det : 0;
  if (!(c > 0))
    throw usage_error("--allreduce: the sweep's times do not grow with the size: no bandwidth "
                      "to fit");
  allreduce_fit f;
  f.latency_s = std::max(0.0, (sy - c * sx) / sw);
  f.bus_bytes_per_s = 1 / c;
  for (const auto& p : s.samples) {
    f.max_busbw = std::max(f.max_busbw, p.busbw);
    const double model = f.latency_s + factor * p.bytes * c;
    f.max_relative_residual =
        std::max(f.max_relative_residual, std::abs(model - p.time_s) / p.time_s);
  }
  if (s.nodes <= 1) {
    f.link = "intra";
    f.latency_per_hop_s = f.latency_s / (2 * (n - 1));
  } else {
    f.link = "inter";
    f.latency_per_hop_s =
        std::max(0.0, (f.latency_s - 2 * (n - nodes) * intra_hop_latency_s) / (2 * (nodes - 1)));
  }
  return f;
}

} // namespace dlsize::analysis
