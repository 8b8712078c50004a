#include "analysis/goodput.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace dlsize::analysis {

double system_mttf(double mttf_s, double accelerators) {
  return accelerators > 0 ? mttf_s / accelerators : mttf_s;
}

double young_interval(double pause_s, double system_mttf_s) {
  return std::sqrt(2 * pause_s * system_mttf_s);
}

std::optional<double> daly_interval(double pause_s, double system_mttf_s) {
  if (!(pause_s < 2 * system_mttf_s))
    return std::nullopt;
  const double xi = pause_s / (2 * system_mttf_s);
  return young_interval(pause_s, system_mttf_s) * (1 + std::sqrt(xi) / 3 + xi / 9) - pause_s;
}

goodput_split goodput_at(double interval_s, const checkpoint_costs& c, double system_mttf_s) {
  const double m = system_mttf_s;
  const double period = interval_s + c.pause_s;
  // expm1 keeps e^{P/M} − 1 exact where the period is a small share of M.
  const double durable = std::exp(-c.drain_s / m) / std::expm1(period / m);
  const double cycle = m * std::exp(c.restart_s / m);
  goodput_split s;
  s.useful = interval_s * durable / cycle;
  s.checkpoints = c.pause_s * durable / cycle;
  s.restarts = -std::expm1(-c.restart_s / m);
  s.rework = std::max(0.0, (m - period * durable) / cycle);
  return s;
}

goodput_estimate estimate_goodput(const checkpoint_costs& c, double system_mttf_s) {
  if (!(c.pause_s > 0) || !(system_mttf_s > 0))
    throw std::invalid_argument("goodput: the checkpoint's pause and the system MTTF must be "
                                "above 0");
  goodput_estimate e;
  e.system_mttf_s = system_mttf_s;
  e.young_s = young_interval(c.pause_s, system_mttf_s);
  e.daly_s = daly_interval(c.pause_s, system_mttf_s);
  if (!e.daly_s)
    return e;
  // The drain must end before the next checkpoint starts: the interval is at least the drain.
  e.drain_bound = c.drain_s > *e.daly_s;
  e.interval_s = std::max(*e.daly_s, c.drain_s);
  e.split = goodput_at(*e.interval_s, c, system_mttf_s);
  return e;
}

std::optional<double>
bandwidth_for_loss(const std::function<checkpoint_costs(double bytes_per_s)>& costs_at,
                   double system_mttf_s, double max_loss) {
  auto loss_at = [&](double bw) { return estimate_goodput(costs_at(bw), system_mttf_s).loss(); };
  double lo = 1, hi = 1e18;
  if (loss_at(hi) > max_loss)
    return std::nullopt;
  if (loss_at(lo) <= max_loss)
    return lo;
  while (hi / lo > 1 + 1e-9) {
    const double mid = std::sqrt(lo * hi);
    (loss_at(mid) <= max_loss ? hi : lo) = mid;
  }
  return hi;
}

} // namespace dlsize::analysis
