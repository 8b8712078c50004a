#pragma once
// `dlsize size`: bench reports grouped into series (one workload, accelerator type and backend
// each, and one cache mode and dataset size), each analysed by the sizing model and projected
// to target accelerator counts and data growth. The result is the sizing document,
// "schema": "dlsize.sizing/1" (docs/sizing.md, docs/sizing.schema.json).
#include <nlohmann/json.hpp>

#include "analysis/report_set.hpp"
#include "analysis/sizing_document.hpp"

namespace dlsize::analysis {

// Throws usage_error when no report can be sized (none is a complete training run), naming
// the files and why each was left out.
sizing_document make_sizing(const report_inputs& in, const sizing_request& req,
                            const nlohmann::json& command_line);

} // namespace dlsize::analysis
