#pragma once
// What the commands that read reports (size, compare, export) do with a library type error that
// the field checks at load (report::check_report_fields, bench_report::from_json) did not catch:
// a usage_error naming the reports, instead of a library message in the middle of an analysis.
#include <exception>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/report_set.hpp"

namespace dlsize::analysis {

// For a library exception raised while reports were read (a field the check above does not
// cover): a usage_error naming the reports and what the library found, without its prefix.
[[noreturn]] void throw_report_shape_error(const std::vector<loaded_report>& reports,
                                           const std::exception& e);

// f(), which reads reports; its library exceptions become throw_report_shape_error.
template <class F>
auto reading_reports(const std::vector<loaded_report>& reports, F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const nlohmann::json::exception& e) {
    throw_report_shape_error(reports, e);
  }
}

} // namespace dlsize::analysis
