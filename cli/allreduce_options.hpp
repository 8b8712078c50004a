#pragma once
#include <nlohmann/json.hpp>
// The allreduce model's options, shared by bench and plan (docs/metrics.md, "Communication").
#include <CLI/CLI.hpp>

#include "config/allreduce_config.hpp"

namespace dlsize::cli {

// Adds --allreduce and its inputs; bench also gets --ranks-per-node (the declared layout).
void add_allreduce_options(CLI::App& cmd, config::allreduce_request& r, bool bench);

// A run config without the allreduce model keeps none of its inputs (their defaults would read
// as given when the config is replayed, and be refused).
void drop_unused_allreduce_inputs(nlohmann::json& config);

} // namespace dlsize::cli
