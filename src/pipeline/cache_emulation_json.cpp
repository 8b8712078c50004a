// The cache emulation's facts as the ranks exchange them (pipeline/cache_emulation.hpp).
#include <fmt/format.h>

#include "core/error.hpp"
#include "pipeline/cache_emulation.hpp"

namespace dlsize::pipeline {

nlohmann::json to_json(const cgroup_fact& f) {
  return {{"cgroup", f.cgroup}, {"pid", f.pid}};
}

cgroup_fact cgroup_fact_from_json(const nlohmann::json& j) {
  try {
    return {j.at("cgroup").get<std::string>(), j.at("pid").get<long>()};
  } catch (const nlohmann::json::exception& e) {
    throw run_error(fmt::format("a rank's memory cgroup facts are malformed: {}", e.what()));
  }
}

} // namespace dlsize::pipeline
