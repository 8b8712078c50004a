#include "pipeline/checkpoint_report.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "pipeline/run_report.hpp"

namespace dlsize::pipeline {
namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
constexpr std::size_t kProblemsShown = 8;

double rate(double bytes, double seconds) {
  return seconds > 0 ? bytes / seconds : 0;
}

struct run_figures {
  double duration_s = 0, min_rank_rate = 0;
  std::uint64_t bytes = 0;
};

// A run's duration is its slowest rank's; its throughput the lowest rate of a rank that wrote
// (a rank with nothing to write, as under ZeRO 0, does not count).
run_figures figures_of(const phase_run& run) {
  run_figures f;
  double min_rate = std::numeric_limits<double>::infinity();
  for (const auto& r : run.ranks) {
    f.duration_s = std::max(f.duration_s, r.seconds);
    f.bytes += r.bytes;
    if (r.bytes)
      min_rate = std::min(min_rate, rate(static_cast<double>(r.bytes), r.seconds));
  }
  f.min_rank_rate = std::isfinite(min_rate) ? min_rate : 0;
  return f;
}

nlohmann::json run_json(const phase_run& run) {
  const run_figures f = figures_of(run);
  nlohmann::json ranks = nlohmann::json::array();
  for (std::size_t i = 0; i < run.ranks.size(); ++i) {
    const auto& r = run.ranks[i];
    ranks.push_back({{"rank", i},
                     {"bytes", r.bytes},
                     {"seconds", r.seconds},
                     {"bytes_per_s", rate(static_cast<double>(r.bytes), r.seconds)}});
  }
  return {{"checkpoint", run.checkpoint},
          {"duration_s", f.duration_s},
          {"bytes", f.bytes},
          {"bytes_per_s", rate(static_cast<double>(f.bytes), f.duration_s)},
          {"throughput_bytes_per_s", f.min_rank_rate},
          {"ranks", ranks}};
}

} // namespace

nlohmann::json phase_json(const std::vector<phase_run>& runs, std::uint64_t asked, bool writes) {
  nlohmann::json rows = nlohmann::json::array();
  std::uint64_t total_bytes = 0;
  double total_s = 0, sum_throughput = 0, cpu_s = 0, fill_s = 0, wait_s = 0, writer_s = 0,
         starved_s = 0;
  double dmin = std::numeric_limits<double>::infinity(), dmax = 0;
  std::uint64_t blocks = 0, mismatches = 0;
  nlohmann::json problems = nlohmann::json::array();
  histogram latency, fsync_latency;
  const std::size_t nranks = runs.empty() ? 0 : runs.front().ranks.size();
  std::vector<std::uint64_t> rank_bytes(nranks, 0);
  std::vector<double> rank_s(nranks, 0);
  for (const auto& run : runs) {
    rows.push_back(run_json(run));
    const run_figures f = figures_of(run);
    total_bytes += f.bytes;
    total_s += f.duration_s;
    sum_throughput += f.min_rank_rate;
    dmin = std::min(dmin, f.duration_s);
    dmax = std::max(dmax, f.duration_s);
    for (std::size_t i = 0; i < run.ranks.size(); ++i) {
      const auto& r = run.ranks[i];
      rank_bytes[i] += r.bytes;
      rank_s[i] += r.seconds;
      cpu_s += r.cpu_s;
      fill_s += r.fill_s;
      wait_s += r.completion_wait_s;
      starved_s += r.starved_s;
      writer_s += r.seconds;
      latency.merge(r.latency);
      fsync_latency.merge(r.fsync_latency);
      blocks += r.blocks;
      mismatches += r.mismatches;
      for (const auto& p : r.problems)
        if (problems.size() < kProblemsShown)
          problems.push_back(p);
    }
  }
  nlohmann::json per_rank = nlohmann::json::array();
  for (std::size_t i = 0; i < nranks; ++i)
    per_rank.push_back({{"rank", i},
                        {"bytes", rank_bytes[i]},
                        {"seconds", rank_s[i]},
                        {"bytes_per_s", rate(static_cast<double>(rank_bytes[i]), rank_s[i])}});
  const double n = static_cast<double>(runs.size());
  nlohmann::json j = {
      {"asked", asked},
      {"count", runs.size()},
      {"bytes", total_bytes},
      {"seconds", total_s},
      {"bytes_per_s", rate(static_cast<double>(total_bytes), total_s)},
      {"duration_s",
       {{"mean", runs.empty() ? 0 : total_s / n}, {"min", runs.empty() ? 0 : dmin}, {"max", dmax}}},
      {"throughput_bytes_per_s", runs.empty() ? 0 : sum_throughput / n},
      {"latency", latency_json(latency)},
      {"cpu_s", cpu_s},
      {"cpu_s_per_gib", total_bytes > 0 ? cpu_s / (static_cast<double>(total_bytes) / kGiB) : 0},
      {"per_rank", per_rank},
      {"runs", rows}};
  if (writes) {
    j["fsync_latency"] = latency_json(fsync_latency);
    j["generation"] = {{"fill_s", fill_s},
                       {"completion_wait_s", wait_s},
                       {"starved_s", starved_s},
                       {"starved_share", writer_s > 0 ? starved_s / writer_s : 0},
                       {"writer_s", writer_s},
                       {"fill_share", writer_s > 0 ? fill_s / writer_s : 0},
                       {"completion_wait_share", writer_s > 0 ? wait_s / writer_s : 0}};
  } else {
    j["verify"] = {{"blocks", blocks}, {"mismatches", mismatches}, {"problems", problems}};
  }
  return j;
}

} // namespace dlsize::pipeline
