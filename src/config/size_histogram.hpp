#pragma once
// An empirical size distribution: buckets [low, high) with counts, as `dlsize index stats`
// measures a real dataset's sample sizes. A profile or a manifest that has one gives datagen
// that shape instead of the normal mean-and-stdev form, so a synthetic copy reproduces a
// long tail or several modes that a mean and a stdev cannot.
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace dlsize::config {

class size_histogram {
public:
  static constexpr std::size_t kMaxBuckets = 4096;

  bool empty() const { return m_low.empty(); }
  std::size_t buckets() const { return m_low.size(); }
  double smallest() const { return m_min; }
  double largest() const { return m_max; } // exclusive
  double mean() const;
  // The size for two uniform draws in [0, 1): a bucket by its share of the counts, then a
  // point within it.
  double draw(double u_bucket, double u_within) const;
  // [[low, high, count], ...]
  nlohmann::json to_json() const;
  // Throws usage_error naming `where` for anything but 1 to kMaxBuckets buckets [low, high,
  // count] with 1 <= low < high <= 4e9 and whole counts of at least 1.
  static size_histogram from_json(const nlohmann::json& j, const std::string& where);
  bool operator==(const size_histogram&) const = default;

private:
  std::vector<double> m_low, m_high;
  std::vector<std::uint64_t> m_cumulative; // counts up to and including each bucket
  double m_min = 0, m_max = 0;
};

} // namespace dlsize::config
