// dlsize: sizes storage and GPUs for deep-learning training.
// Exit codes: 0 success, 1 run failure, 2 usage or configuration error.
//
// Launched by an MPI launcher, every process is a rank of one job. Errors then end every rank
// the same way: an error all ranks agreed on is printed once, by rank 0; an error only one rank
// can know of ends the job from that rank, named.
#include <cstdio>
#include <functional>
#include <iostream>
#include <set>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "accel/cuda_backend.hpp"
#include "cluster/agreement.hpp"
#include "cluster/communicator.hpp"
#include "commands.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/json_input.hpp"
#include "core/stop.hpp"
#include "dlsize/build_config.hpp"
#include "io/uring_engine.hpp"
#include "option_rules.hpp"
#include "report/report_io.hpp"

namespace {

using dlsize::cluster::communicator;

void print_error(int code, const std::string& message) {
  std::fprintf(stderr, "dlsize: %s: %s\n", code == 2 ? "error" : "failed", message.c_str());
}

// An error that reached main in a job of several ranks. Before the first agreement the other
// ranks are at theirs (the command line is the same everywhere, or they failed too), so this
// one takes part with its error; after it, only this rank knows, and it ends the job.
int job_failure(communicator& comm, int code, const std::string& message,
                const std::function<void()>& print_own) {
  if (comm.agreements() == 0) {
    try {
      dlsize::cluster::agree_failure(comm, code, message);
    } catch (const dlsize::cluster::job_error& e) {
      if (comm.rank() == 0) {
        if (e.what() == message && print_own)
          print_own();
        else
          print_error(e.exit_code(), e.what());
      }
      return e.exit_code();
    } catch (const std::exception& e) {
      std::fprintf(stderr, "dlsize: %s: failed: %s (after: %s)\n",
                   comm.rank_name(comm.rank()).c_str(), e.what(), message.c_str());
      comm.abort(code);
    }
  }
  std::fprintf(stderr, "dlsize: %s: %s: %s\n", comm.rank_name(comm.rank()).c_str(),
               code == 2 ? "error" : "failed", message.c_str());
  comm.abort(code);
  return code; // not reached
}

// Every subcommand, and the refusal of those that run in one process when started as a job.
void add_commands(CLI::App& app, dlsize::cli::cli_context& ctx, communicator& comm) {
  dlsize::cli::setup_datagen(app, ctx);
  dlsize::cli::setup_verify(app, ctx);
  dlsize::cli::setup_bench(app, ctx);
  dlsize::cli::setup_checkpoint(app, ctx);
  dlsize::cli::setup_plan(app, ctx);
  dlsize::cli::setup_compare(app, ctx);
  dlsize::cli::setup_calibrate(app, ctx);
  dlsize::cli::setup_sweep(app, ctx);
  dlsize::cli::setup_size(app, ctx);
  dlsize::cli::setup_validate(app, ctx);
  dlsize::cli::setup_export(app, ctx);
  dlsize::cli::setup_index(app, ctx);
  // Commands other than these run in one process; as a job of several ranks they would race on
  // the same outputs.
  static const std::set<std::string> job_commands = {"bench", "checkpoint", "datagen"};
  for (CLI::App* sub : app.get_subcommands({})) {
    const std::string name = sub->get_name();
    if (job_commands.count(name))
      continue;
    sub->preparse_callback([&comm, name](std::size_t) {
      if (comm.size() > 1)
        throw dlsize::usage_error(
            fmt::format("dlsize {} runs in one process, not as a job of {} ranks. valid: run it "
                        "without mpiexec or srun (bench, checkpoint and datagen run as MPI jobs)",
                        name, comm.size()));
    });
  }
}

// --version: the version, the commit and the compiled-in features.
void print_version() {
  std::cout << "dlsize " << DLSIZE_VERSION << " (commit " << dlsize::report::tool_commit() << ")\n";
  std::string uring_unusable;
  dlsize::io::uring_engine::available(uring_unusable);
  for (const auto& line : dlsize::report::feature_lines(uring_unusable))
    std::cout << "  " << line << "\n";
  std::cout << "  " << dlsize::accel::cuda_backend::version_line() << "\n";
}

int run(int argc, char** argv) {
  communicator& comm = dlsize::cluster::world();
  const bool root = comm.rank() == 0;
  dlsize::cli::cli_context ctx{argc, argv, 0};
  CLI::App app{"dlsize: size storage and GPUs for deep-learning training"};
  app.require_subcommand(0, 1);
  bool version = false;
  app.add_flag("--version", version, "Print the version and the compiled-in features");
  bool option_table = false;
  app.add_flag("--option-table", option_table,
               "Every option's valid values, as Markdown table rows (docs/options.md)")
      ->group("");
  add_commands(app, ctx, comm);
  dlsize::install_stop_handlers();
  try {
    dlsize::cli::apply_option_rules(app);
    app.parse(argc, argv);
    if (option_table) {
      if (root)
        std::cout << dlsize::cli::option_table_markdown(app);
      return 0;
    }
    if (version) {
      if (root)
        print_version();
      return 0;
    }
    if (app.get_subcommands().empty()) {
      if (root)
        std::cout << app.help();
      return 2;
    }
    return ctx.exit_code;
  } catch (const CLI::CallForHelp& e) {
    return root ? app.exit(e) : 0;
  } catch (const CLI::CallForAllHelp& e) {
    return root ? app.exit(e) : 0;
  } catch (const CLI::ParseError& e) {
    if (comm.size() == 1) {
      app.exit(e);
      return 2;
    }
    return job_failure(comm, 2, e.what(), [&] { app.exit(e); });
  } catch (const dlsize::cluster::job_error& e) {
    if (root)
      print_error(e.exit_code(), e.what());
    return e.exit_code();
  } catch (const nlohmann::json::exception& e) {
    // A JSON input of a shape that no check before caught: the user's to fix, and said in
    // words, without the library's exception prefix.
    const std::string message =
        "a JSON input has a value of another type or shape than expected: " +
        dlsize::core::json_error_text(e);
    if (comm.size() == 1) {
      print_error(2, message);
      return 2;
    }
    return job_failure(comm, 2, message, nullptr);
  } catch (const std::exception& e) {
    const int code = dlsize::cluster::exit_code_of(e);
    if (comm.size() == 1) {
      print_error(code, e.what());
      return code;
    }
    return job_failure(comm, code, e.what(), nullptr);
  }
}

} // namespace

int main(int argc, char** argv) {
  dlsize::mark_process_start();
  try {
    dlsize::cluster::init_world(argc, argv);
  } catch (const std::exception& e) {
    if (dlsize::cluster::launcher_rank() == 0)
      print_error(dlsize::cluster::exit_code_of(e), e.what());
    return dlsize::cluster::exit_code_of(e);
  }
  const int code = run(argc, argv);
  dlsize::cluster::finalize_world(code);
  return code;
}
