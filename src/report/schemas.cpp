#include "report/schemas.hpp"

#include <map>
#include <memory>

#include "config/embedded_workloads.hpp"
#include "core/json_checks.hpp"
#include "core/json_input.hpp"

namespace dlsize::report {
namespace {

// Each schema names its kind in properties.schema.const; parsed once, on first use.
const std::map<std::string, std::unique_ptr<json_schema>>& table() {
  static const auto t = [] {
    std::map<std::string, std::unique_ptr<json_schema>> m;
    for (const auto& e : config::embedded_schemas()) {
      auto j = core::parse_json(e.json, "docs/" + std::string(e.name) + ".schema.json",
                                core::kSchemaJson);
      const auto kind = j.value("/properties/schema/const"_json_pointer, std::string());
      if (!kind.empty())
        m.emplace(kind, std::make_unique<json_schema>(std::move(j)));
    }
    return m;
  }();
  return t;
}

} // namespace

const json_schema* schema_for(const std::string& kind) {
  const auto it = table().find(kind);
  return it == table().end() ? nullptr : it->second.get();
}

std::vector<std::string> schema_kinds() {
  std::vector<std::string> out;
  for (const auto& [k, v] : table())
    out.push_back(k);
  return out;
}

} // namespace dlsize::report
