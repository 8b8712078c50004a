#pragma once
// The workload profiles compiled into dlsize from workloads/*.json (generated source).
#include <string_view>
#include <vector>

namespace dlsize::config {

struct embedded_workload {
  std::string_view name;
  std::string_view json;
};

const std::vector<embedded_workload>& embedded_workloads();

}  // namespace dlsize::config
