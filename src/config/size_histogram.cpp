#include "config/size_histogram.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"

namespace dlsize::config {

double size_histogram::mean() const {
  double sum = 0;
  std::uint64_t before = 0;
  for (std::size_t i = 0; i < m_low.size(); ++i) {
    sum += static_cast<double>(m_cumulative[i] - before) * (m_low[i] + m_high[i]) / 2;
    before = m_cumulative[i];
  }
  return before ? sum / static_cast<double>(before) : 0.0;
}

double size_histogram::draw(double u_bucket, double u_within) const {
  const auto total = static_cast<double>(m_cumulative.back());
  const auto k = static_cast<std::uint64_t>(u_bucket * total);
  const auto it = std::upper_bound(m_cumulative.begin(), m_cumulative.end(), k);
  const auto i = static_cast<std::size_t>(
      std::min<std::ptrdiff_t>(it - m_cumulative.begin(), std::ssize(m_cumulative) - 1));
  return std::floor(m_low[i] + u_within * (m_high[i] - m_low[i]));
}

nlohmann::json size_histogram::to_json() const {
  nlohmann::json out = nlohmann::json::array();
  std::uint64_t before = 0;
  for (std::size_t i = 0; i < m_low.size(); ++i) {
    out.push_back({m_low[i], m_high[i], m_cumulative[i] - before});
    before = m_cumulative[i];
  }
  return out;
}

size_histogram size_histogram::from_json(const nlohmann::json& j, const std::string& where) {
  const std::string valid = fmt::format(
      "valid: 1 to {} buckets [low, high, count], 1 <= low < high <= 4e9, count a whole number "
      "of at least 1",
      kMaxBuckets);
  if (!j.is_array() || j.empty() || j.size() > kMaxBuckets)
    throw usage_error(fmt::format("{}: expected an array of buckets. {}", where, valid));
  size_histogram h;
  std::uint64_t total = 0;
  for (std::size_t i = 0; i < j.size(); ++i) {
    const auto& b = j[i];
    if (!b.is_array() || b.size() != 3 || !b[0].is_number() || !b[1].is_number() ||
        !b[2].is_number_unsigned())
      throw usage_error(fmt::format("{}[{}]: expected [low, high, count]. {}", where, i, valid));
    const double lo = b[0].get<double>(), hi = b[1].get<double>();
    const auto n = b[2].get<std::uint64_t>();
    if (!(lo >= 1 && lo < hi && hi <= 4e9) || n < 1 || n > (UINT64_MAX >> 2) - total)
      throw usage_error(
          fmt::format("{}[{}]: [{}, {}, {}] is out of range. {}", where, i, lo, hi, n, valid));
    total += n;
    h.m_low.push_back(lo);
    h.m_high.push_back(hi);
    h.m_cumulative.push_back(total);
  }
  h.m_min = *std::min_element(h.m_low.begin(), h.m_low.end());
  h.m_max = *std::max_element(h.m_high.begin(), h.m_high.end());
  return h;
}

} // namespace dlsize::config
