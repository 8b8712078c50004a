#pragma once
// The JSON Schemas of dlsize's documents (docs/*.schema.json, compiled in) and validation of a
// document by its `schema` field, for `dlsize validate` and the tests.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/json_schema.hpp"

namespace dlsize::report {

// The validator for a document kind such as "dlsize.report/1"; nullptr when none is embedded.
const json_schema* schema_for(const std::string& kind);

// The kinds that have a schema, sorted.
std::vector<std::string> schema_kinds();

} // namespace dlsize::report
