#pragma once
// Which of two backends is faster, and by how much, with what confidence: Welch's t interval
// on the difference of mean log samples/s (unequal variances), turned back into a ratio. Below
// three runs on either side there is no interval ("not enough runs").
#include <optional>
#include <string>
#include <vector>

namespace dlsize::analysis {

inline constexpr std::size_t kMinRunsForInterval = 3;

struct ratio_interval {
  double ratio = 0;         // exp(mean log b − mean log a): b ÷ a
  double low = 0, high = 0; // the 95 % interval of that ratio
  double df = 0;            // Welch–Satterthwaite degrees of freedom
  bool excludes_one() const { return low > 1 || high < 1; }
};

// b against a (positive samples); nullopt with fewer than kMinRunsForInterval on either side
// or a non-positive value.
std::optional<ratio_interval> welch_ratio(const std::vector<double>& a,
                                          const std::vector<double>& b);

// "2.41× (95 % CI 2.30 to 2.52)" or "not enough runs (2 and 3; 3 each are needed)".
std::string ratio_text(const std::optional<ratio_interval>& r, std::size_t runs_a,
                       std::size_t runs_b);

} // namespace dlsize::analysis
