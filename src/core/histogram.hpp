#pragma once
// A log-bucket latency histogram in nanoseconds: 16 sub-buckets per power of two (error below
// 6.25 %), fixed size, no allocation on record, mergeable by adding counts. Percentiles come
// from merged counts, never from averaged percentiles.
#include <array>
#include <cstdint>

#include <nlohmann/json_fwd.hpp>

namespace dlsize {

class histogram {
public:
  static constexpr int kSubBits = 4;
  static constexpr int kSub = 1 << kSubBits;
  static constexpr int kBuckets = (64 - kSubBits + 1) * kSub;

  void record(std::uint64_t value_ns) {
    ++m_counts[static_cast<std::size_t>(bucket_of(value_ns))];
    ++m_total;
    m_sum += value_ns;
    if (value_ns < m_min)
      m_min = value_ns;
    if (value_ns > m_max)
      m_max = value_ns;
  }
  void merge(const histogram& other);

  std::uint64_t count() const { return m_total; }
  std::uint64_t min() const { return m_total ? m_min : 0; }
  std::uint64_t max() const { return m_max; }
  std::uint64_t sum() const { return m_sum; }
  double mean() const {
    return m_total ? static_cast<double>(m_sum) / static_cast<double>(m_total) : 0.0;
  }
  // Value at quantile q in [0, 1]: the midpoint of the bucket holding it, clamped to min/max.
  double quantile(double q) const;

  static int bucket_of(std::uint64_t v) {
    if (v < kSub)
      return static_cast<int>(v);
    const int msb = 63 - __builtin_clzll(v);
    const int shift = msb - kSubBits;
    return (shift + 1) * kSub + static_cast<int>((v >> shift) & (kSub - 1));
  }
  static std::uint64_t bucket_low(int b);
  static std::uint64_t bucket_high(int b); // exclusive; the top bucket saturates at 2^64 - 1
  // each(low, high, count) for every non-empty bucket, lowest first.
  template <class F> void for_each_bucket(F&& each) const {
    for (int b = 0; b < kBuckets; ++b)
      if (const auto c = m_counts[static_cast<std::size_t>(b)])
        each(bucket_low(b), bucket_high(b), c);
  }

  // {"unit": "ns", "sub_buckets_per_octave": 16, "buckets": [[low, high, count], ...]} with
  // only non-empty buckets; from_json reverses it.
  nlohmann::json to_json() const;
  static histogram from_json(const nlohmann::json& j);

private:
  std::array<std::uint64_t, kBuckets> m_counts{};
  std::uint64_t m_total = 0;
  std::uint64_t m_sum = 0;
  std::uint64_t m_min = UINT64_MAX;
  std::uint64_t m_max = 0;
};

} // namespace dlsize
