// dlsize sweep: a matrix of bench runs of one load on one backend (accelerator counts, dataset
// variants or cache modes, repeats), each point its own bench process, resumable.
#include <unistd.h>

#include <climits>
#include <string>

#include "commands.hpp"
#include "core/error.hpp"
#include "report/report_io.hpp"
#include "sweep/sweep_runner.hpp"

namespace dlsize::cli {
namespace {

struct sweep_cli {
  std::string config;
  std::string out;
  bool dry_run = false;
};

// A command's long option names (dlsize bench, dlsize checkpoint), from its own setup, for
// checking a sweep's option keys.
std::vector<std::string> option_names(void (*setup)(CLI::App&, cli_context&), const char* name) {
  CLI::App app;
  cli_context unused;
  setup(app, unused);
  std::vector<std::string> names;
  for (const CLI::Option* o : app.get_subcommand(name)->get_options()) {
    if (o->get_lnames().empty())
      continue;
    const std::string& n = o->get_lnames().front();
    if (n != "help" && n != "config" && n != "check-only")
      names.push_back(n);
  }
  return names;
}

// The executable the points run: the path this one was started by when it names a file (kept
// relative, as given, so that commands and reports hold no machine's paths), else its own
// /proc/self/exe.
std::string self_path(const char* argv0) {
  const std::string a = argv0 ? argv0 : "";
  if (a.find('/') != std::string::npos)
    return a;
  char buf[PATH_MAX];
  const ssize_t n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0)
    throw run_error("cannot find the dlsize executable: readlink /proc/self/exe failed");
  return std::string(buf, static_cast<std::size_t>(n));
}

} // namespace

void setup_sweep(CLI::App& app, cli_context& ctx) {
  auto o = std::make_shared<sweep_cli>();
  auto* sub = app.add_subcommand("sweep", "Run a matrix of bench runs (accelerator counts, "
                                          "datasets or cache modes, repeats); resumable");
  sub->add_option("--config", o->config, "Sweep config (JSON; docs/sizing.md, configs/sweeps/)")
      ->required();
  sub->add_option("--out", o->out, "Sweep folder: new or empty, or a sweep to resume")->required();
  sub->add_flag("--dry-run", o->dry_run, "Print every point's command and run nothing");
  sub->callback([o, &ctx] {
    sweep::sweep_options s;
    s.config_file = o->config;
    s.out_dir = o->out;
    s.self = self_path(ctx.argc > 0 ? ctx.argv[0] : nullptr);
    s.bench_keys = option_names(setup_bench, "bench");
    s.checkpoint_keys = option_names(setup_checkpoint, "checkpoint");
    s.command_line = report::command_line_json(ctx.argc, ctx.argv);
    s.dry_run = o->dry_run;
    ctx.exit_code = sweep::run_sweep(s);
  });
}

} // namespace dlsize::cli
