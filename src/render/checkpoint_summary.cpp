#include "render/checkpoint_summary.hpp"

#include <cstdint>

#include <fmt/format.h>

#include "core/units.hpp"

namespace dlsize::render {

std::string checkpoint_summary(const nlohmann::json& r) {
  std::string s;
  const auto& c = r["checkpoint"];
  for (const char* phase : {"write", "read"}) {
    const auto& p = c[phase];
    if (p["count"].get<std::uint64_t>() == 0)
      continue;
    s += fmt::format("{:<5} {} x {}: duration {:.3f} s (mean of the slowest rank), throughput {} "
                     "(slowest rank), aggregate {}\n",
                     phase, p["count"].get<std::uint64_t>(),
                     units::format_bytes_binary(c["bytes_per_checkpoint"].get<double>()),
                     p["duration_s"]["mean"].get<double>(),
                     units::format_rate_both(p["throughput_bytes_per_s"].get<double>()),
                     units::format_rate_both(p["bytes_per_s"].get<double>()));
  }
  const auto& m = r["mlperf_validity"];
  s += fmt::format("MLPerf Storage {} rules: {}\n", m["rules_edition"].get<std::string>(),
                   m["verdict"].get<std::string>());
  for (const auto& rule : m["rules"])
    if (rule["verdict"] != "PASS")
      s += fmt::format("  {}: {}: {}\n", rule["verdict"].get<std::string>(),
                       rule["rule"].get<std::string>(), rule["measured"].get<std::string>());
  s += fmt::format("status {}{}\n", r["status"].get<std::string>(),
                   r.contains("reason") ? ": " + r["reason"].get<std::string>() : "");
  return s;
}

} // namespace dlsize::render
