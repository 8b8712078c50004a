#pragma once
// The few ways the analysis reads a bench report's JSON, in one place, so that the typed
// report (bench_report) can replace them without touching the analyses.
#include <string>

#include <nlohmann/json.hpp>

namespace dlsize::report {

// The number at a JSON pointer ("/summary/read_bytes_per_s"); NaN when absent or not a number.
double number_at(const nlohmann::json& report, const char* pointer);

} // namespace dlsize::report
