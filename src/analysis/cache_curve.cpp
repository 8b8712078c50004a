#include "analysis/cache_curve.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "analysis/cache_model.hpp"
#include "analysis/stats.hpp"
#include "core/error.hpp"

namespace dlsize::analysis {
namespace {

template <class Value, class Model>
cache_residuals residuals_of(const cache_curve& c, Value value, Model model) {
  cache_residuals r;
  if (c.points.empty())
    return r;
  double sum = 0, sq = 0;
  for (const auto& p : c.points) {
    const double d = value(p) - model(p.f);
    sum += d;
    sq += d * d;
    r.max_abs = std::max(r.max_abs, std::abs(d));
  }
  const auto n = static_cast<double>(c.points.size());
  r.mean = sum / n;
  r.rms = std::sqrt(sq / n);
  return r;
}

double hit_of(const cache_point& p) {
  return p.hit_ratio();
}

// Pool-adjacent-violators: the weighted least-squares non-increasing sequence closest to the
// knots' medians.
void make_non_increasing(std::vector<cache_knot>& knots) {
  struct block {
    double value, weight;
    std::size_t count;
  };
  std::vector<block> blocks;
  for (const auto& k : knots) {
    blocks.push_back({k.measured_storage_per_read, static_cast<double>(k.runs), 1});
    while (blocks.size() > 1 && blocks[blocks.size() - 2].value < blocks.back().value) {
      const block b = blocks.back();
      blocks.pop_back();
      block& a = blocks.back();
      a.value = (a.value * a.weight + b.value * b.weight) / (a.weight + b.weight);
      a.weight += b.weight;
      a.count += b.count;
    }
  }
  std::size_t i = 0;
  for (const auto& b : blocks)
    for (std::size_t j = 0; j < b.count; ++j)
      knots[i++].storage_per_read = b.value;
}

} // namespace

double cache_point::hit_ratio() const {
  return std::clamp(1 - storage_per_read, 0.0, 1.0);
}

double cache_curve::storage_per_read_at(double f) const {
  if (f <= knots.front().f)
    return knots.front().storage_per_read;
  if (f >= knots.back().f)
    return knots.back().storage_per_read;
  const auto hi = std::upper_bound(knots.begin(), knots.end(), f,
                                   [](double x, const cache_knot& k) { return x < k.f; });
  const auto lo = hi - 1;
  const double t = (f - lo->f) / (hi->f - lo->f);
  return lo->storage_per_read + t * (hi->storage_per_read - lo->storage_per_read);
}

double cache_curve::hit_ratio_at(double f) const {
  return std::clamp(1 - storage_per_read_at(f), 0.0, 1.0);
}

cache_residuals cache_curve::fit_residuals() const {
  return residuals_of(*this, hit_of, [this](double f) { return hit_ratio_at(f); });
}

cache_residuals cache_curve::lru_residuals() const {
  return residuals_of(*this, hit_of, [](double f) { return lru_hit_ratio(f, 1); });
}

cache_residuals cache_curve::never_evict_residuals() const {
  return residuals_of(*this, hit_of, [](double f) { return never_evict_hit_ratio(f, 1); });
}

cache_residuals cache_curve::fit_storage_residuals() const {
  return residuals_of(
      *this, [](const cache_point& p) { return p.storage_per_read; },
      [this](double f) { return storage_per_read_at(f); });
}

cache_curve fit_cache_curve(std::vector<cache_point> points) {
  for (const auto& p : points)
    if (!(std::isfinite(p.f) && p.f > 0 && std::isfinite(p.storage_per_read) &&
          p.storage_per_read >= 0))
      throw usage_error(fmt::format("{}: a cache sweep point needs f = cache_emulation."
                                    "client_ram_bytes / dataset.bytes above 0 and storage."
                                    "warm_epochs.storage_per_read_byte at or above 0. f: {}; "
                                    "storage_per_read_byte: {}",
                                    p.file, p.f, p.storage_per_read));
  std::sort(points.begin(), points.end(),
            [](const cache_point& a, const cache_point& b) { return a.f < b.f; });
  cache_curve c;
  c.points = std::move(points);
  for (std::size_t i = 0; i < c.points.size();) {
    std::size_t j = i;
    std::vector<double> values;
    while (j < c.points.size() && c.points[j].f <= c.points[i].f * (1 + 1e-6))
      values.push_back(c.points[j++].storage_per_read);
    cache_knot k;
    k.f = c.points[i].f;
    k.runs = values.size();
    k.measured_storage_per_read = median(values);
    k.storage_per_read = k.measured_storage_per_read;
    c.knots.push_back(k);
    i = j;
  }
  make_non_increasing(c.knots);
  return c;
}

} // namespace dlsize::analysis
