#include "core/histogram.hpp"

#include <algorithm>
#include <cmath>

#include <nlohmann/json.hpp>

#include "core/error.hpp"

namespace dlsize {

void histogram::merge(const histogram& other) {
  for (std::size_t i = 0; i < m_counts.size(); ++i)
    m_counts[i] += other.m_counts[i];
  m_total += other.m_total;
  m_sum += other.m_sum;
  m_min = std::min(m_min, other.m_min);
  m_max = std::max(m_max, other.m_max);
}

std::uint64_t histogram::bucket_low(int b) {
  if (b < kSub)
    return static_cast<std::uint64_t>(b);
  const int shift = b / kSub - 1;
  const auto sub = static_cast<std::uint64_t>(b % kSub);
  return (static_cast<std::uint64_t>(kSub) + sub) << shift;
}

std::uint64_t histogram::bucket_high(int b) {
  if (b < kSub)
    return static_cast<std::uint64_t>(b) + 1;
  const int shift = b / kSub - 1;
  const std::uint64_t low = bucket_low(b);
  const std::uint64_t width = 1ull << shift;
  return low > UINT64_MAX - width ? UINT64_MAX : low + width; // the top bucket ends at 2^64 - 1
}

double histogram::quantile(double q) const {
  if (m_total == 0)
    return 0.0;
  q = std::clamp(q, 0.0, 1.0);
  // Rank of the wanted sample, 1-based, as in the nearest-rank definition.
  auto rank = static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(m_total)));
  if (rank == 0)
    rank = 1;
  std::uint64_t seen = 0;
  for (int b = 0; b < kBuckets; ++b) {
    seen += m_counts[static_cast<std::size_t>(b)];
    if (seen >= rank) {
      const double mid =
          0.5 * (static_cast<double>(bucket_low(b)) + static_cast<double>(bucket_high(b) - 1));
      return std::clamp(mid, static_cast<double>(m_min), static_cast<double>(m_max));
    }
  }
  return static_cast<double>(m_max);
}

nlohmann::json histogram::to_json() const {
  nlohmann::json buckets = nlohmann::json::array();
  for_each_bucket([&](std::uint64_t low, std::uint64_t high, std::uint64_t c) {
    buckets.push_back({low, high, c});
  });
  return {{"unit", "ns"},      {"sub_buckets_per_octave", kSub},
          {"count", m_total},  {"sum", m_sum},
          {"min", min()},      {"max", m_max},
          {"buckets", buckets}};
}

histogram histogram::from_json(const nlohmann::json& j) {
  histogram h;
  if (j.value("sub_buckets_per_octave", 0) != kSub)
    throw usage_error("histogram: sub_buckets_per_octave must be 16");
  for (const auto& row : j.at("buckets")) {
    const auto low = row.at(0).get<std::uint64_t>();
    const auto c = row.at(2).get<std::uint64_t>();
    h.m_counts[static_cast<std::size_t>(bucket_of(low))] += c;
    h.m_total += c;
  }
  h.m_sum = j.value("sum", std::uint64_t{0});
  h.m_min = h.m_total ? j.value("min", std::uint64_t{0}) : UINT64_MAX;
  h.m_max = j.value("max", std::uint64_t{0});
  return h;
}

} // namespace dlsize
