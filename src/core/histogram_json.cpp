// A latency histogram's JSON (the reports' io.histogram and every latency block's histogram):
// the only place it is made and read.
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/histogram.hpp"

namespace dlsize {

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
