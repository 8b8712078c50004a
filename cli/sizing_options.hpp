#pragma once
// The options size and compare share: the target cluster (accelerators, data growth, clients,
// NICs, RAM, front end), the headroom, the cache model, the buyer's prices, and the goodput
// model's MTTF, target loss and counts.
#include <CLI/CLI.hpp>

#include "analysis/sizing_rules.hpp"

namespace dlsize::cli {

void add_sizing_options(CLI::App* sub, analysis::size_options& o);

} // namespace dlsize::cli
