#pragma once
// How often a training job saves its checkpoint: every N steps or every duration, written with
// its unit ("500steps", "30min"); a bare number is refused, since 500 could mean either.
#include <cstdint>
#include <string>
#include <string_view>

namespace dlsize::config {

struct checkpoint_interval {
  std::uint64_t steps = 0; // above 0 for "Nsteps"
  double seconds = 0;      // above 0 for a duration
  bool in_steps() const { return steps > 0; }
  // The interval in seconds of training, a step taking step_s.
  double seconds_at(double step_s) const {
    return in_steps() ? static_cast<double>(steps) * step_s : seconds;
  }
  std::string text() const; // "500 steps", "30 min"
};

// Parses "500steps" (also "500 steps", "1step") or a duration with its unit ("30min", "1h",
// "90s"). Throws usage_error naming option for a bare number, a zero interval or other text.
checkpoint_interval parse_checkpoint_interval(std::string_view text, std::string_view option);

} // namespace dlsize::config
