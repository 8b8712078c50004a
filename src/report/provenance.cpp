#include "report/provenance.hpp"

#include "report/backend_identity.hpp"

namespace dlsize::report {

void add_provenance(nlohmann::json& report) {
  report["backend"] = backend_json(report);
}

} // namespace dlsize::report
