#pragma once
// The typed table of every option of every command: its value's kind and range. The CLI checks
// each value given on the command line or in a run config against it before any command runs
// (cli/option_rules), and the table's ranges are what --help and docs/reliability.md show. A
// command's option without an entry is a programming error that every dlsize call reports.
#include <span>
#include <string_view>

#include "core/value_rule.hpp"

namespace dlsize::config {

struct option_entry {
  // "bench", "index stats", several as "size|compare"; "" for an option many commands share
  std::string_view command;
  std::string_view option; // "--readers", or a positional's name ("reports")
  core::value_rule rule;
};

std::span<const option_entry> option_table();

// The rule of command's option: its own entry, else the shared one; nullptr when there is none.
const core::value_rule* option_rule(std::string_view command, std::string_view option);

} // namespace dlsize::config
