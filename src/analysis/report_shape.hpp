#pragma once
// The shape of a bench report as the commands that read reports (size, compare, export) use
// it: the containers they open and the fields they read typed. A report is a file anyone can
// edit, so a field of the wrong type is refused at load with the file, the key and the type
// expected, instead of a library type error in the middle of an analysis.
#include <exception>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/report_set.hpp"

namespace dlsize::analysis {

// Throws usage_error "FILE: /summary: is an array. valid: an object" for the first field of
// j that has another type than the one the readers expect (absent fields and, for scalar
// fields, null are let through: older reports leave them out or null).
void check_report_shape(const nlohmann::json& j, const std::string& file);

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
