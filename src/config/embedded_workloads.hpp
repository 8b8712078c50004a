#pragma once
// The workload profiles (workloads/*.json) and run configs (configs/*.json) compiled into
// dlsize (generated sources), and the documents' JSON Schemas (docs/*.schema.json).
#include <string_view>
#include <vector>

namespace dlsize::config {

struct embedded_workload {
  std::string_view name;
  std::string_view json;
};

const std::vector<embedded_workload>& embedded_workloads();
const std::vector<embedded_workload>& embedded_configs();
// The JSON Schemas of docs/*.schema.json, named by file ("report" for report.schema.json).
const std::vector<embedded_workload>& embedded_schemas();

} // namespace dlsize::config
