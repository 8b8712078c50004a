#pragma once
// The workload profiles (workloads/*.json) and run configs (configs/*.json) compiled into
// dlsize (generated sources).
#include <string_view>
#include <vector>

namespace dlsize::config {

struct embedded_workload {
  std::string_view name;
  std::string_view json;
};

const std::vector<embedded_workload>& embedded_workloads();
const std::vector<embedded_workload>& embedded_configs();

} // namespace dlsize::config
