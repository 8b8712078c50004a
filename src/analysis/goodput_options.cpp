#include "analysis/goodput_options.hpp"

#include <cmath>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/units.hpp"

namespace dlsize::analysis {

bool goodput_asked(const goodput_request& r) {
  return !r.mttf.empty() || !r.max_loss.empty() || !r.restart_overhead.empty() ||
         !r.accelerators.empty();
}

void goodput_options::apply_to(goodput_setup& s) const {
  s.mttf_s = mttf_s;
  s.mttf_source = mttf_source;
  s.max_loss = max_loss;
  s.restart_overhead_s = restart_overhead_s;
  s.restart_overhead_source = restart_overhead_source;
}

goodput_options parse_goodput_options(const goodput_request& r) {
  goodput_options o;
  if (!r.mttf.empty()) {
    o.mttf_s = units::parse_duration(r.mttf, "--mttf");
    if (!(o.mttf_s > 0))
      throw usage_error(fmt::format("--mttf: '{}' is not above 0. valid: the mean time to "
                                    "failure of one accelerator, such as 50000h",
                                    r.mttf));
    o.mttf_source = fmt::format("--mttf {}", r.mttf);
  }
  // A loss of 100 % is no target: parse_fraction allows it, the model does not.
  if (!r.max_loss.empty())
    o.max_loss = units::parse_fraction(r.max_loss, "--max-loss");
  if (!(o.max_loss < 1))
    throw usage_error(fmt::format("--max-loss: '{}' is no target. valid: a share of the wall "
                                  "time below 100 %, such as 5% or 0.05",
                                  r.max_loss));
  if (!r.restart_overhead.empty()) {
    o.restart_overhead_s = units::parse_duration(r.restart_overhead, "--restart-overhead");
    o.restart_overhead_source = fmt::format("--restart-overhead {}", r.restart_overhead);
  }
  if (!r.accelerators.empty())
    o.counts.clear();
  for (const double n : r.accelerators) {
    if (!(n >= 1 && n <= 1 << 20) || n != std::floor(n))
      throw usage_error(fmt::format("--goodput-accelerators: {} is not a count of "
                                    "accelerators. valid: whole numbers from 1 to 1048576, "
                                    "such as 1024,16384",
                                    n));
    o.counts.push_back(static_cast<std::uint64_t>(n));
  }
  return o;
}

} // namespace dlsize::analysis
