#pragma once
// The allreduce model's options, shared by bench and plan (docs/metrics.md, "Communication").
#include <CLI/CLI.hpp>

#include "config/allreduce_config.hpp"

namespace dlsize::cli {

// Adds --allreduce and its inputs; bench also gets --ranks-per-node (the declared layout).
void add_allreduce_options(CLI::App& cmd, config::allreduce_request& r, bool bench);

} // namespace dlsize::cli
