#include "analysis/goodput_curve.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/units.hpp"

namespace dlsize::analysis {
namespace {

constexpr double kSearchLimit = 1e8; // accelerators: beyond any cluster built
constexpr int kCurvePoints = 40;

double loss_at(const goodput_setup& s, double n) {
  return estimate_goodput(costs_at(s, n), system_mttf(s.mttf_s, n)).loss();
}

// The largest count in [1, kSearchLimit] before the loss first exceeds max_loss: a scan in
// steps of 5 %, then bisection on the integers of the step that crossed.
std::uint64_t holds_up_to(const goodput_setup& s, bool& beyond) {
  beyond = false;
  if (loss_at(s, 1) > s.max_loss)
    return 0;
  double ok = 1;
  for (double n = 2; n <= kSearchLimit; n = std::ceil(n * 1.05)) {
    if (loss_at(s, n) > s.max_loss) {
      double bad = n;
      while (bad - ok > 1) {
        const double mid = std::floor((ok + bad) / 2);
        (loss_at(s, mid) <= s.max_loss ? ok : bad) = mid;
      }
      return static_cast<std::uint64_t>(ok);
    }
    ok = n;
  }
  beyond = true;
  return static_cast<std::uint64_t>(ok);
}

goodput_rates_document rates_document(const phase_rates& r) {
  goodput_rates_document d;
  d.bytes_per_s = r.bytes_per_s;
  if (std::isfinite(r.rank_bytes_per_s))
    d.rank_bytes_per_s = r.rank_bytes_per_s;
  d.source = r.source;
  return d;
}

std::vector<std::string> assumptions_of(const goodput_setup& s) {
  std::vector<std::string> a = {
      "Failures are exponential (memoryless), independent per accelerator: the job fails every "
      "M = MTTF / N on average, during checkpoints and restarts too, and resumes from its last "
      "durable checkpoint.",
      "The interval is Daly's higher-order estimate (2006), Young's sqrt(2 delta M) beside it; "
      "where a checkpoint takes 2M or more, checkpoints cannot keep up.",
      "A checkpoint of N ranks takes max(largest rank share / one rank's rate, the job's bytes / "
      "all ranks' rate): more ranks never write or restore faster than the storage was measured "
      "(or given) to.",
      fmt::format("A restart is the restore read plus {} of overhead ({}).",
                  units::format_plain(s.restart_overhead_s) + " s", s.restart_overhead_source)};
  if (s.async)
    a.push_back(fmt::format(
        "Asynchronous: training pauses only to copy each rank's share to host memory at {} per "
        "accelerator; the write to storage follows in the background, must end within the "
        "interval, and a failure before it ends loses back to the checkpoint before.",
        units::format_rate_both(s.staging_bytes_per_s)));
  return a;
}

void check_setup(const goodput_setup& s) {
  if (!(s.write.bytes_per_s > 0) || !(s.restore.bytes_per_s > 0))
    throw usage_error("goodput: the write and restore bandwidth must be above 0");
  if (!(s.mttf_s > 0))
    throw usage_error("--mttf: must be above 0. valid: a duration such as 50000h");
  if (!(s.max_loss > 0 && s.max_loss < 1))
    throw usage_error(fmt::format("--max-loss: {} is outside (0, 1). valid: a share of the wall "
                                  "time such as 5% or 0.05",
                                  s.max_loss));
  if (s.async && !(s.staging_bytes_per_s > 0))
    throw usage_error("--staging-bandwidth: must be above 0 with asynchronous checkpoints");
}

} // namespace

std::vector<std::uint64_t> default_goodput_counts() {
  return {1024, 4096, 16384, 65536, 100000};
}

double largest_rank_bytes(const config::checkpoint_profile& p, double ranks) {
  const double n = std::max(1.0, ranks);
  const auto model = static_cast<double>(p.model_bytes);
  const auto optimizer = static_cast<double>(p.optimizer_bytes);
  switch (p.zero_stage) {
  case 0:
    return model + optimizer;
  case 3:
    return (model + optimizer) / n;
  default:
    return optimizer / n + model / std::min(n, static_cast<double>(p.model_parallel()));
  }
}

double phase_seconds(const phase_rates& r, const config::checkpoint_profile& p, double ranks) {
  const double job = static_cast<double>(p.total_bytes()) / r.bytes_per_s;
  return std::max(largest_rank_bytes(p, ranks) / r.rank_bytes_per_s, job);
}

checkpoint_costs costs_at(const goodput_setup& s, double accelerators, double write_bytes_per_s) {
  phase_rates write = s.write;
  if (write_bytes_per_s > 0)
    write = {write_bytes_per_s, std::numeric_limits<double>::infinity(), ""};
  const double write_s = phase_seconds(write, s.profile, accelerators);
  checkpoint_costs c;
  c.pause_s =
      s.async ? largest_rank_bytes(s.profile, accelerators) / s.staging_bytes_per_s : write_s;
  c.drain_s = s.async ? write_s : 0;
  c.restart_s = phase_seconds(s.restore, s.profile, accelerators) + s.restart_overhead_s;
  return c;
}

goodput_row_document goodput_row(const goodput_setup& s, std::uint64_t accelerators) {
  const auto n = static_cast<double>(accelerators);
  const double m = system_mttf(s.mttf_s, n);
  const checkpoint_costs c = costs_at(s, n);
  const goodput_estimate e = estimate_goodput(c, m);
  goodput_row_document r;
  r.accelerators = accelerators;
  r.system_mttf_s = m;
  r.largest_rank_bytes = largest_rank_bytes(s.profile, n);
  r.write_s = s.async ? c.drain_s : c.pause_s;
  r.write_bytes_per_s = static_cast<double>(s.profile.total_bytes()) / r.write_s;
  r.pause_s = c.pause_s;
  r.drain_s = c.drain_s;
  r.restart_s = c.restart_s;
  r.restore_s = phase_seconds(s.restore, s.profile, n);
  r.young_s = e.young_s;
  r.daly_s = e.daly_s;
  r.interval_s = e.interval_s;
  r.keeps_up = e.keeps_up();
  r.drain_bound = e.drain_bound;
  if (e.split) {
    const goodput_split& p = *e.split;
    r.loss = goodput_loss_document{p.checkpoints, p.rework, p.restarts, p.loss()};
    r.goodput = p.useful;
  }
  r.meets_max_loss = e.loss() <= s.max_loss;
  r.write_bytes_per_s_for_max_loss =
      bandwidth_for_loss([&](double bw) { return costs_at(s, n, bw); }, m, s.max_loss);
  return r;
}

goodput_document goodput_curve(const goodput_setup& s, std::vector<std::uint64_t> counts,
                               std::uint64_t planned) {
  check_setup(s);
  if (planned > 0 && std::find(counts.begin(), counts.end(), planned) == counts.end())
    counts.push_back(planned);
  std::sort(counts.begin(), counts.end());
  goodput_document d;
  d.workload = s.workload;
  d.backend = s.backend;
  d.checkpoint_bytes = static_cast<double>(s.profile.total_bytes());
  d.checkpoint_source = s.checkpoint_source;
  d.mttf_s = s.mttf_s;
  d.mttf_source = s.mttf_source;
  d.async = s.async;
  if (s.async)
    d.staging_bytes_per_s = s.staging_bytes_per_s;
  d.restart_overhead_s = s.restart_overhead_s;
  d.restart_overhead_source = s.restart_overhead_source;
  d.write = rates_document(s.write);
  d.restore = rates_document(s.restore);
  d.max_loss = s.max_loss;
  d.accelerators = planned;
  for (const std::uint64_t n : counts)
    d.rows.push_back(goodput_row(s, n));
  const double span = static_cast<double>(counts.back());
  for (int i = 1; i <= kCurvePoints; ++i) {
    const auto n = static_cast<std::uint64_t>(std::ceil(span * i / kCurvePoints));
    d.curve.push_back({n, loss_at(s, static_cast<double>(n))});
  }
  d.holds_max_loss_up_to = holds_up_to(s, d.holds_beyond_search);
  d.assumptions = assumptions_of(s);
  return d;
}

const goodput_row_document* goodput_document::planned() const {
  for (const auto& r : rows)
    if (accelerators > 0 && r.accelerators == accelerators)
      return &r;
  return nullptr;
}

} // namespace dlsize::analysis
