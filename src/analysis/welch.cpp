#include "analysis/welch.hpp"

#include <cmath>

#include <fmt/format.h>

#include "analysis/student_t.hpp"

namespace dlsize::analysis {
namespace {

bool mean_var_log(const std::vector<double>& v, double& mean, double& var) {
  mean = 0;
  for (double x : v) {
    if (!(x > 0))
      return false;
    mean += std::log(x) / static_cast<double>(v.size());
  }
  var = 0;
  for (double x : v)
    var += std::pow(std::log(x) - mean, 2) / static_cast<double>(v.size() - 1);
  return true;
}

} // namespace

std::optional<ratio_interval> welch_ratio(const std::vector<double>& a,
                                          const std::vector<double>& b) {
  if (a.size() < kMinRunsForInterval || b.size() < kMinRunsForInterval)
    return std::nullopt;
  double ma = 0, va = 0, mb = 0, vb = 0;
  if (!mean_var_log(a, ma, va) || !mean_var_log(b, mb, vb))
    return std::nullopt;
  const double na = static_cast<double>(a.size()), nb = static_cast<double>(b.size());
  const double sa = va / na, sb = vb / nb;
  ratio_interval r;
  const double d = mb - ma;
  r.ratio = std::exp(d);
  const double se2 = sa + sb;
  if (se2 <= 0) { // identical repeats: the interval is the point
    r.low = r.high = r.ratio;
    r.df = na + nb - 2;
    return r;
  }
  r.df = se2 * se2 / (sa * sa / (na - 1) + sb * sb / (nb - 1));
  const double half = analysis::student_t_quantile(0.975, r.df) * std::sqrt(se2);
  r.low = std::exp(d - half);
  r.high = std::exp(d + half);
  return r;
}

std::string ratio_text(const std::optional<ratio_interval>& r, std::size_t runs_a,
                       std::size_t runs_b) {
  if (!r)
    return fmt::format("not enough runs ({} and {}; {} each are needed)", runs_a, runs_b,
                       kMinRunsForInterval);
  return fmt::format("{:.3g}× (95 % CI {:.3g} to {:.3g})", r->ratio, r->low, r->high);
}

} // namespace dlsize::analysis
