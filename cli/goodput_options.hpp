#pragma once
// The goodput model's options, shared by plan, size and compare (docs/metrics.md, "Goodput").
#include <CLI/CLI.hpp>

#include "analysis/goodput_options.hpp"

namespace dlsize::cli {

// Adds --mttf, --max-loss, --restart-overhead and --goodput-accelerators.
void add_goodput_options(CLI::App& cmd, analysis::goodput_request& r);

} // namespace dlsize::cli
