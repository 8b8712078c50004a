#pragma once
// The allreduce model's options, shared by bench and plan (docs/metrics.md, "Communication").
#include <CLI/CLI.hpp>

#include "config/allreduce_config.hpp"

namespace dlsize::cli {

// Adds --allreduce and its inputs; bench also gets --ranks-per-node (the declared layout).
void add_allreduce_options(CLI::App& cmd, config::allreduce_request& r, bool bench);
// Throws usage_error when an input of the model was given but --allreduce is none.
void require_allreduce_for_inputs(const CLI::App& cmd, const config::allreduce_request& r);

} // namespace dlsize::cli
