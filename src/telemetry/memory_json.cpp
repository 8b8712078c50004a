// The host's memory figures as a report records them (storage.memory_start, memory_end).
#include "telemetry/storage_counters.hpp"

namespace dlsize::telemetry {

nlohmann::json memory_json() {
  const memory_figures m = memory_now();
  const auto number = [](const std::optional<std::uint64_t>& v) {
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
  };
  return {{"page_cache_bytes", number(m.page_cache_bytes)},
          {"available_bytes", number(m.available_bytes)},
          {"free_bytes", number(m.free_bytes)}};
}

} // namespace dlsize::telemetry
