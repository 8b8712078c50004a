#include "render/checkpoint_summary.hpp"

#include <utility>

#include <fmt/format.h>

#include "core/units.hpp"

namespace dlsize::render {

std::string checkpoint_summary(const report::checkpoint_document& r) {
  std::string s;
  const auto& c = r.checkpoint;
  for (const auto& [phase, p] : {std::pair{"write", &c.write}, std::pair{"read", &c.read}}) {
    if (p->count == 0)
      continue;
    s += fmt::format("{:<5} {} x {}: duration {:.3f} s (mean of the slowest rank), throughput {} "
                     "(slowest rank), aggregate {}\n",
                     phase, p->count,
                     units::format_bytes_binary(static_cast<double>(c.bytes_per_checkpoint)),
                     p->duration_s.mean, units::format_rate_both(p->throughput_bytes_per_s),
                     units::format_rate_both(p->bytes_per_s));
  }
  if (const auto& m = r.mlperf_validity) {
    s += fmt::format("MLPerf Storage {} rules: {}\n", report::to_string(m->edition), m->verdict());
    for (const auto& rule : m->rules)
      if (rule.verdict != report::rule_verdict::pass)
        s += fmt::format("  {}: {}: {}\n", report::to_string(rule.verdict), rule.rule,
                         rule.measured);
  }
  s += fmt::format("status {}{}\n", report::to_string(r.status), r.reason ? ": " + *r.reason : "");
  return s;
}

} // namespace dlsize::render
