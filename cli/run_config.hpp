#pragma once
// Run configs: a JSON object whose keys are a subcommand's long option names ("queue-depth",
// "accelerator", ...), applied to every option the command line left unset, so the command
// line overrides the file. A name without '/' or ".json" is an embedded config (configs/).
#include <cstdint>
#include <set>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

namespace dlsize::cli {

// Applies the config to cmd. Throws usage_error naming the file and key for an unknown key, a
// value of the wrong type or out of the option's range (config::option_table), or a file that is
// not a JSON object.
void apply_run_config(CLI::App& cmd, const std::string& file_or_name);

// apply_run_config for a JSON object (the config block of a report, for --replay); source
// names it in errors.
void apply_run_config_object(CLI::App& cmd, const nlohmann::json& j, const std::string& source);

// --replay: applies the config block of a dlsize.report/1 file like --config (the command line
// wins) and returns the ranks of the run it records (0 when the report does not say).
std::uint64_t apply_replay(CLI::App& cmd, const std::string& report_file);

// The options the user set (on the command line, by --config or --replay), as effective_config.
nlohmann::json given_options(const CLI::App& cmd);
// The same options' long names with their dashes ("--nics-per-node"), aliases included, for the
// option rules in src/config.
std::set<std::string> given_long_options(const CLI::App& cmd);

// Every option's value in effect (given, from the config, or the default), keyed by its long
// name; numbers and booleans as JSON numbers and booleans.
nlohmann::json effective_config(const CLI::App& cmd);

// Holds the reads before a run (a --config or --replay file first) to the command's
// --stall-timeout and --time-limit as given; a value that does not parse is left to the
// command's own checks, which refuse it (core::watch_inputs is then called again with the
// values in effect).
void watch_inputs_as_given(const std::string& stall_timeout, const std::string& time_limit);

} // namespace dlsize::cli
