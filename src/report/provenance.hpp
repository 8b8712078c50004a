#pragma once
// The run-level facts a report adds once its sections are made: the backend block (label and
// identity) that compare and size group runs by.
#include <nlohmann/json.hpp>

namespace dlsize::report {

// Adds them to a bench report that already has config, dataset, io and storage.
void add_provenance(nlohmann::json& report);

} // namespace dlsize::report
