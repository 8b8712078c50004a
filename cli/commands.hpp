#pragma once
// One setup function per subcommand: each adds its options to the app and a callback that calls
// one library function. The callbacks set the process exit code through cli_context.
#include <CLI/CLI.hpp>

namespace dlsize::cli {

struct cli_context {
  int argc = 0;
  const char* const* argv = nullptr;
  int exit_code = 0;
};

void setup_datagen(CLI::App& app, cli_context& ctx);
void setup_verify(CLI::App& app, cli_context& ctx);
void setup_bench(CLI::App& app, cli_context& ctx);
void setup_checkpoint(CLI::App& app, cli_context& ctx);
void setup_plan(CLI::App& app, cli_context& ctx);
void setup_compare(CLI::App& app, cli_context& ctx);
void setup_calibrate(CLI::App& app, cli_context& ctx);
void setup_sweep(CLI::App& app, cli_context& ctx);
void setup_size(CLI::App& app, cli_context& ctx);
void setup_validate(CLI::App& app, cli_context& ctx);
void setup_export(CLI::App& app, cli_context& ctx);
void setup_index(CLI::App& app, cli_context& ctx);

} // namespace dlsize::cli
