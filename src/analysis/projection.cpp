#include "analysis/projection.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "analysis/cache_model.hpp"
#include "core/error.hpp"
#include "core/figures.hpp"
#include "core/units.hpp"

namespace dlsize::analysis {
namespace {

std::string rate(double v) {
  return units::format_rate_both(v);
}

} // namespace

std::uint64_t max_accelerators_at_threshold(const scaling_analysis& a, double storage_bytes_per_s,
                                            double hit_ratio, double demand_per_accelerator,
                                            const std::function<double(double)>& efficiency) {
  // The reads the storage feeds, then the count whose reads at AU 100 % times the threshold
  // fit in them: by the requirement's line (which counts the bytes actually read, O_DIRECT
  // padding and read-ahead included), or by the nominal demand without one.
  const double reads = storage_bytes_per_s / std::max(1e-12, 1 - hit_ratio) / a.au_threshold;
  const auto need = [&](double n) {
    const double linear = a.demand_line && a.demand_line->slope > 0 ? a.demand_line->predict(n)
                                                                    : n * demand_per_accelerator;
    return linear * (efficiency ? efficiency(n) : 1.0);
  };
  double n = 0;
  if (a.demand_line && a.demand_line->slope > 0)
    n = (reads - a.demand_line->intercept) / a.demand_line->slope;
  else if (demand_per_accelerator > 0)
    n = reads / demand_per_accelerator;
  if (!(n > 0))
    return 0;
  auto most = static_cast<std::uint64_t>(std::floor(n * (1 + 1e-12)));
  if (!efficiency)
    return most;
  // The linear count is a lower bound (efficiency ≤ 1); the need grows with the count, so
  // search upwards from it: doubling to a count past the bandwidth, then bisecting.
  std::uint64_t hi = std::max<std::uint64_t>(1, most);
  while (hi < (1ull << 40) && need(static_cast<double>(hi)) <= reads * (1 + 1e-12))
    hi *= 2;
  std::uint64_t lo = hi / 2;
  while (lo + 1 < hi) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    (need(static_cast<double>(mid)) <= reads * (1 + 1e-12) ? lo : hi) = mid;
  }
  return need(static_cast<double>(hi)) <= reads * (1 + 1e-12) ? hi : lo;
}

const char* cache_model_name(cache_model_kind k) {
  return core::name_of(k).data();
}

double projected_hit_ratio(const projection_options& o, double growth, std::string* source) {
  const bool measured = std::isfinite(o.measured_hit_ratio);
  if (measured && growth == 1.0) {
    *source = "measured";
    return o.measured_hit_ratio;
  }
  const double data = o.dataset_bytes * growth;
  double h = o.cache_model == cache_model_kind::never_evict
                 ? never_evict_hit_ratio(o.cache_bytes, data)
                 : lru_hit_ratio(o.cache_bytes, data);
  if (o.cache_bytes <= 0)
    h = 0;
  *source = cache_model_name(o.cache_model);
  if (measured && growth > 1.0 && h > o.measured_hit_ratio) {
    h = o.measured_hit_ratio;
    *source += " (capped at the measured ratio)";
  }
  return h;
}

projected_cache project_cache(const projection_options& o, double growth) {
  projected_cache c;
  const bool curve = o.cache_model == cache_model_kind::measured && o.curve && o.cache_bytes > 0;
  if (!curve || (std::isfinite(o.measured_hit_ratio) && growth == 1.0)) {
    c.hit_ratio = projected_hit_ratio(o, growth, &c.source);
    c.storage_per_read = 1 - c.hit_ratio;
    return c;
  }
  const double f = o.cache_bytes / (o.dataset_bytes * growth);
  c.storage_per_read = o.curve->storage_per_read_at(f);
  c.source = fmt::format("measured cache curve at f {:.3g}", f);
  if (f < o.curve->smallest_f() || f > o.curve->largest_f())
    c.source += fmt::format(" (outside the measured {:.3g} to {:.3g}: the nearest end's)",
                            o.curve->smallest_f(), o.curve->largest_f());
  if (std::isfinite(o.measured_hit_ratio) && growth > 1.0 &&
      c.storage_per_read < 1 - o.measured_hit_ratio) {
    c.storage_per_read = 1 - o.measured_hit_ratio;
    c.source += " (capped at the measured ratio)";
  }
  c.hit_ratio = std::clamp(1 - c.storage_per_read, 0.0, 1.0);
  return c;
}

namespace {

// The reads n accelerators ask for (the requirement's line, or the demand × n without one),
// scaled by the allreduce's efficiency, with its interval; and what the storage must serve of
// them once the cache has served its share, with the provision and the physical limit.
void set_requirement(projection& p, const scaling_analysis& a, const projection_options& o) {
  const double n = p.accelerators;
  const double eff = p.scaling_efficiency;
  if (a.demand_line) {
    p.reads = a.demand_line->predict(n) * eff;
    const double half = a.requirement_half_width(n) * eff;
    if (std::isfinite(half)) {
      p.reads_high = p.reads + half;
      p.reads_low = log_interval_low(p.reads, p.reads_high);
    }
  } else {
    p.reads = n * o.demand_per_accelerator * eff;
  }
  const double miss = p.storage_per_read;
  p.required = p.reads * miss;
  p.required_low = p.reads_low * miss;
  p.required_high = p.reads_high * miss;
  p.provision = o.headroom * (std::isfinite(p.required_high) ? p.required_high : p.required);
  p.provision_capped = p.provision;
  if (o.limit_bytes_per_s > 0) {
    p.within_limit = p.provision <= o.limit_bytes_per_s;
    p.provision_capped = std::min(p.provision, o.limit_bytes_per_s);
  }
}

// What the measured backend delivers to this load: its ceiling (within the limit), the AU that
// gives, and the most accelerators it holds at the threshold.
void set_backend_verdict(projection& p, const scaling_analysis& a, const scaling_analysis& req,
                         const projection_options& o, const std::optional<double>& ceiling,
                         double best_storage) {
  std::optional<double> deliver = ceiling;
  if (!deliver && p.required <= best_storage)
    deliver = p.required; // measured to hold it
  if (deliver && o.limit_bytes_per_s > 0)
    deliver = std::min(*deliver, o.limit_bytes_per_s);
  if (deliver && p.required > 0) {
    p.expected_accelerator_utilization = core::au_at_bandwidth(*deliver, p.required);
    p.backend_holds = p.expected_accelerator_utilization >= a.au_threshold;
  }
  if (ceiling) {
    double d = *ceiling;
    if (o.limit_bytes_per_s > 0)
      d = std::min(d, o.limit_bytes_per_s);
    p.max_accelerators = max_accelerators_at_threshold(req, d, 1 - p.storage_per_read,
                                                       o.demand_per_accelerator, o.efficiency);
  }
}

// The caveats of a projection, as short flags and as sentences.
void set_caveats(projection& p, const scaling_analysis& a, const scaling_analysis& req,
                 const projection_options& o, const std::optional<double>& ceiling) {
  const double n = p.accelerators;
  if (n > a.largest())
    p.flags.push_back("extrapolated");
  if (a.knee_found() && n > a.knee.hinge.breakpoint)
    p.flags.push_back("past the knee");
  if (!req.demand_line)
    p.flags.push_back("from the demand");
  if (p.within_limit && !*p.within_limit)
    p.flags.push_back("over the limit");
  if (n > a.largest())
    p.warnings.push_back(fmt::format("{} accelerators is beyond the measured range ({} to {}): "
                                     "an extrapolation",
                                     n, a.smallest(), a.largest()));
  if (a.knee_found() && n > a.knee.hinge.breakpoint)
    p.warnings.push_back(
        fmt::format("past the knee at {:.3g} accelerators: this backend saturates near {}; the "
                    "requirement comes from {}",
                    a.knee.hinge.breakpoint, ceiling ? rate(*ceiling) : "?", req.demand_basis));
  if (!req.demand_line)
    p.warnings.push_back(fmt::format("no fit below the knee: the requirement is {} × the "
                                     "demand of one accelerator ({})",
                                     n, rate(o.demand_per_accelerator)));
  if (p.within_limit && !*p.within_limit)
    p.warnings.push_back(fmt::format("needs {} with headroom, above the physical limit {} ({})",
                                     rate(p.provision), rate(o.limit_bytes_per_s), o.limit_source));
}

} // namespace

double log_interval_low(double estimate, double high) {
  if (!std::isfinite(high) || !(high > 0) || !(estimate > 0))
    return std::nan("");
  return estimate * estimate / high;
}

std::vector<projection> project(const scaling_analysis& a, const projection_options& o) {
  const scaling_analysis& req = o.requirement ? *o.requirement : a;
  std::vector<projection> out;
  const double h_measured = std::isfinite(o.measured_hit_ratio) ? o.measured_hit_ratio : 0.0;
  // The backend's ceiling in storage terms: what its reads reached, less what a cache served.
  const std::optional<double> ceiling =
      a.ceiling ? std::optional<double>(*a.ceiling * (1 - h_measured)) : std::nullopt;
  const double best_storage = a.best_bytes_per_s * (1 - h_measured);
  for (double n : o.targets) {
    if (!(n > 0))
      throw usage_error(
          fmt::format("--target-accelerators: {} is not valid. valid: counts above 0", n));
    for (double g : o.growth) {
      if (!(g > 0))
        throw usage_error(fmt::format("--data-growth: {} is not valid. valid: factors above 0", g));
      projection p;
      p.accelerators = n;
      p.growth = g;
      p.dataset_bytes = o.dataset_bytes * g;
      const projected_cache cache = project_cache(o, g);
      p.hit_ratio = cache.hit_ratio;
      p.storage_per_read = cache.storage_per_read;
      p.hit_ratio_source = cache.source;
      p.scaling_efficiency = o.efficiency ? o.efficiency(n) : 1.0;
      set_requirement(p, req, o);
      set_backend_verdict(p, a, req, o, ceiling, best_storage);
      set_caveats(p, a, req, o, ceiling);
      out.push_back(std::move(p));
    }
  }
  return out;
}

} // namespace dlsize::analysis
