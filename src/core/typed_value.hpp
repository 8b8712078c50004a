#pragma once
// An option's value as CLI11 holds it (text), as JSON for run configs and reports: "true" and
// "false" as booleans, integers as numbers (unsigned first, so that every seed up to 2^64 - 1
// is kept exactly; an integer out of range stays text, never clamped), other numbers as doubles,
// anything else as text.
#include <string>

#include <nlohmann/json.hpp>

namespace dlsize::core {

nlohmann::json typed_value(const std::string& text);

} // namespace dlsize::core
