#include "analysis/report_shape.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/json_input.hpp"

namespace dlsize::analysis {
void throw_report_shape_error(const std::vector<loaded_report>& reports, const std::exception& e) {
  std::vector<std::string> files;
  for (const auto& r : reports)
    files.push_back(r.file);
  throw usage_error(fmt::format("{}: a field has a type the reader does not expect ({}). valid: "
                                "reports as dlsize bench writes them (dlsize validate names the "
                                "key)",
                                fmt::join(files, ", "), core::json_error_text(e)));
}

} // namespace dlsize::analysis
