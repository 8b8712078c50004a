#include "pipeline/checkpoint_report.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

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

report::checkpoint_rank_figures rank_figures(std::size_t rank, std::uint64_t bytes,
                                             double seconds) {
  return {rank, bytes, seconds, rate(static_cast<double>(bytes), seconds)};
}

report::checkpoint_run_figures run_row(const phase_run& run) {
  const run_figures f = figures_of(run);
  report::checkpoint_run_figures out;
  out.checkpoint = run.checkpoint;
  out.duration_s = f.duration_s;
  out.bytes = f.bytes;
  out.bytes_per_s = rate(static_cast<double>(f.bytes), f.duration_s);
  out.throughput_bytes_per_s = f.min_rank_rate;
  for (std::size_t i = 0; i < run.ranks.size(); ++i)
    out.ranks.push_back(rank_figures(i, run.ranks[i].bytes, run.ranks[i].seconds));
  return out;
}

} // namespace

report::checkpoint_phase_figures phase_figures(const std::vector<phase_run>& runs,
                                               std::uint64_t asked, bool writes) {
  report::checkpoint_phase_figures p;
  double sum_throughput = 0, fill_s = 0, wait_s = 0, writer_s = 0, starved_s = 0;
  double dmin = std::numeric_limits<double>::infinity(), dmax = 0;
  report::checkpoint_verify verify;
  histogram fsync_latency;
  const std::size_t nranks = runs.empty() ? 0 : runs.front().ranks.size();
  std::vector<std::uint64_t> rank_bytes(nranks, 0);
  std::vector<double> rank_s(nranks, 0);
  for (const auto& run : runs) {
    p.runs.push_back(run_row(run));
    const run_figures f = figures_of(run);
    p.bytes += f.bytes;
    p.seconds += f.duration_s;
    sum_throughput += f.min_rank_rate;
    dmin = std::min(dmin, f.duration_s);
    dmax = std::max(dmax, f.duration_s);
    for (std::size_t i = 0; i < run.ranks.size(); ++i) {
      const auto& r = run.ranks[i];
      rank_bytes[i] += r.bytes;
      rank_s[i] += r.seconds;
      p.cpu_s += r.cpu_s;
      fill_s += r.fill_s;
      wait_s += r.completion_wait_s;
      starved_s += r.starved_s;
      writer_s += r.seconds;
      p.latency.merge(r.latency);
      fsync_latency.merge(r.fsync_latency);
      verify.blocks += r.blocks;
      verify.mismatches += r.mismatches;
      for (const auto& problem : r.problems)
        if (verify.problems.size() < kProblemsShown)
          verify.problems.push_back(problem);
    }
  }
  for (std::size_t i = 0; i < nranks; ++i)
    p.per_rank.push_back(rank_figures(i, rank_bytes[i], rank_s[i]));
  const double n = static_cast<double>(runs.size());
  p.asked = asked;
  p.count = runs.size();
  p.bytes_per_s = rate(static_cast<double>(p.bytes), p.seconds);
  p.duration_s = {runs.empty() ? 0 : p.seconds / n, runs.empty() ? 0 : dmin, dmax};
  p.throughput_bytes_per_s = runs.empty() ? 0 : sum_throughput / n;
  p.cpu_s_per_gib = p.bytes > 0 ? p.cpu_s / (static_cast<double>(p.bytes) / kGiB) : 0;
  if (writes) {
    p.fsync_latency = fsync_latency;
    const auto share = [&](double s) { return writer_s > 0 ? s / writer_s : 0; };
    p.generation = {fill_s,   wait_s,        starved_s,    share(starved_s),
                    writer_s, share(fill_s), share(wait_s)};
  } else {
    p.verify = verify;
  }
  return p;
}

} // namespace dlsize::pipeline
