// The host's memory figures as a report records them (storage.memory_start, memory_end).
#include "telemetry/fact_files.hpp"
#include "telemetry/storage_counters.hpp"

namespace dlsize::telemetry {

nlohmann::json memory_json() {
  const std::string mi = read_fact("/proc/meminfo").value_or("");
  auto get = [&](const char* k) -> nlohmann::json {
    auto v = meminfo_bytes(mi, k);
    return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
  };
  return {{"page_cache_bytes", get("Cached")},
          {"available_bytes", get("MemAvailable")},
          {"free_bytes", get("MemFree")}};
}

} // namespace dlsize::telemetry
