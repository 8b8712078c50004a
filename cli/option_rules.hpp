#pragma once
// The option table (config::option_table) on the CLI: every option of every subcommand gets its
// rule as a CLI11 check, so a value is refused (exit 2, naming the option) before any command
// runs, and its range is shown in --help. Run configs are checked against the same rules.
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json_fwd.hpp>

#include "core/value_rule.hpp"

namespace dlsize::cli {

// Attaches each option's rule to every subcommand of app (nested ones too). Throws
// std::logic_error naming an option the table lacks: a new option needs its entry.
void apply_option_rules(CLI::App& app);

// The command as the table names it ("bench", "index stats"), and an option as it does
// ("--readers", or a positional's name).
std::string command_path(const CLI::App& cmd);
std::string option_key(const CLI::Option& opt);

// The rule of cmd's option; throws std::logic_error when the table has none.
const core::value_rule& rule_of(const CLI::App& cmd, const CLI::Option& opt);

// Every option of every command with its rule, as the rows of a Markdown table (`dlsize
// --option-table`; docs/options.md holds the same rows, and tests feed every option from it).
std::string option_table_markdown(CLI::App& app);

} // namespace dlsize::cli
