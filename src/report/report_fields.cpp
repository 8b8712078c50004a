#include "report/report_fields.hpp"

#include <cmath>

#include "report/run_identity.hpp"

namespace dlsize::report {

double number_at(const nlohmann::json& r, const char* pointer) {
  const nlohmann::json::json_pointer p(pointer);
  return r.contains(p) && r[p].is_number() ? r[p].get<double>() : std::nan("");
}

} // namespace dlsize::report
