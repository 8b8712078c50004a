// dlsize: sizes storage and GPUs for deep-learning training.
// Exit codes: 0 success, 1 run failure, 2 usage or configuration error.
#include <cstdio>
#include <iostream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "commands.hpp"
#include "core/error.hpp"
#include "core/stop.hpp"
#include "dlsize/build_config.hpp"
#include "report/report_io.hpp"

int main(int argc, char** argv) {
  dlsize::cli::cli_context ctx{argc, argv, 0};
  CLI::App app{"dlsize: size storage and GPUs for deep-learning training"};
  app.require_subcommand(0, 1);
  bool version = false;
  app.add_flag("--version", version, "Print the version and the compiled-in features");
  dlsize::cli::setup_datagen(app, ctx);
  dlsize::cli::setup_verify(app, ctx);
  dlsize::cli::setup_bench(app, ctx);
  dlsize::cli::setup_plan(app, ctx);
  dlsize::cli::setup_compare(app, ctx);
  dlsize::cli::setup_sweep(app, ctx);
  dlsize::cli::setup_size(app, ctx);
  dlsize::install_stop_handlers();
  try {
    app.parse(argc, argv);
    if (version) {
      std::cout << "dlsize " << DLSIZE_VERSION << "\n";
      for (const auto& line : dlsize::report::feature_lines()) std::cout << "  " << line << "\n";
      return 0;
    }
    if (app.get_subcommands().empty()) {
      std::cout << app.help();
      return 2;
    }
    return ctx.exit_code;
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    app.exit(e);
    return 2;
  } catch (const dlsize::usage_error& e) {
    std::fprintf(stderr, "dlsize: error: %s\n", e.what());
    return 2;
  } catch (const dlsize::run_error& e) {
    std::fprintf(stderr, "dlsize: failed: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dlsize: failed: %s\n", e.what());
    return 1;
  }
}
