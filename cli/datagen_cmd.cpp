// dlsize datagen: write a dataset for a workload profile.
#include <cstdio>
#include <set>

#include <fmt/format.h>

#include "cluster/agreement.hpp"
#include "cluster/hosts.hpp"
#include "commands.hpp"
#include "config/bench_rules.hpp"
#include "config/workload.hpp"
#include "core/defaults.hpp"
#include "core/error.hpp"
#include "core/input_watch.hpp"
#include "core/sysinfo.hpp"
#include "core/thread_budget.hpp"
#include "core/units.hpp"
#include "dataset/datagen.hpp"
#include "dataset/datagen_job.hpp"
#include "dataset/datagen_rules.hpp"
#include "dlsize/build_config.hpp"
#include "run_config.hpp"
#include "s3_options.hpp"
#include "worker_options.hpp"
#if DLSIZE_HAVE_S3
#include "dataset/s3_dataset.hpp"
#endif

namespace dlsize::cli {
namespace {

struct datagen_cli {
  std::string workload;
  std::string dataset;
  dataset::datagen_request req;
  unsigned threads = 0;
  std::string stall_timeout = core::defaults::stall_timeout_text;
  bool quiet = false;
  s3::settings s3;
  std::string part_size = "64MiB";
  std::set<std::string> given; // the long options given
};

dataset::datagen_options options_of(const datagen_cli& o, std::uint64_t ram);
int report_datagen(const datagen_cli& o, const dataset::datagen_result& r, unsigned ranks,
                   const char* unit);
int run_s3_datagen(const datagen_cli& o);

int run_datagen(const datagen_cli& o) {
  if (s3::is_s3_url(o.dataset))
    return run_s3_datagen(o);
  s3::refuse_s3_options(o.given, fmt::format("--dataset '{}'", o.dataset));
  cluster::communicator& comm = cluster::world();
  // The options are checked on every rank first (the first collective of a command is always an
  // agreement), every rank must have been given the same, then the size is taken from the RAM of
  // every host of the job.
  const auto given = cluster::agree(comm, [&] {
    options_of(o, sysinfo::ram_bytes());
    return cluster::command_given("datagen", {{"workload", o.workload},
                                              {"dataset", o.dataset},
                                              {"size", o.req.size},
                                              {"files", o.req.files},
                                              {"seed", o.req.seed},
                                              {"layout", o.req.layout},
                                              {"records-per-file", o.req.records_per_file},
                                              {"stall-timeout", o.stall_timeout}});
  });
  cluster::require_same(comm, given, "command and options");
  dataset::datagen_options opt = options_of(o, cluster::ram_of_hosts(comm));
  opt.progress = !o.quiet && comm.rank() == 0;
  const auto r = dataset::generate_dataset_job(opt, comm);
  if (comm.rank() != 0)
    return r.interrupted ? 1 : 0;
  return report_datagen(o, r, comm.size(), "files");
}

// The outcome's lines; the exit code (1: interrupted).
int report_datagen(const datagen_cli& o, const dataset::datagen_result& r, unsigned ranks,
                   const char* unit) {
  if (r.already_complete) {
    std::printf("dataset %s is already complete with these parameters; nothing to do\n",
                o.dataset.c_str());
    return 0;
  }
  if (r.interrupted) {
    std::fprintf(stderr,
                 "dlsize: datagen interrupted after %llu %s; rerun the same command to resume\n",
                 static_cast<unsigned long long>(r.files_written + r.files_kept), unit);
    return 1;
  }
  std::printf("dataset %s: %llu %s (%llu written, %llu kept from an earlier run), %s in %.1f s%s\n",
              o.dataset.c_str(), static_cast<unsigned long long>(r.files_written + r.files_kept),
              unit, static_cast<unsigned long long>(r.files_written),
              static_cast<unsigned long long>(r.files_kept),
              units::format_bytes_binary(static_cast<double>(r.bytes_written)).c_str(), r.seconds,
              ranks > 1 ? fmt::format(", by {} ranks", ranks).c_str() : "");
  if (r.s3_requests)
    std::printf("S3: %s\n", s3::requests_text(*r.s3_requests).c_str());
  return 0;
}

// datagen into a bucket: one process, its --threads writing objects in parallel.
int run_s3_datagen(const datagen_cli& o) {
  if (cluster::world().size() > 1)
    throw usage_error("--dataset: datagen into S3 runs as one process (its --threads put objects "
                      "in parallel). valid: run it without mpiexec");
  s3::settings settings = o.s3;
  const auto where = s3_dataset(o.dataset, "--dataset", settings);
#if DLSIZE_HAVE_S3
  dataset::s3_datagen_options opt;
  opt.where = *where;
  opt.settings = settings;
  opt.stall_timeout_s = config::stall_timeout_of(o.stall_timeout);
  core::watch_inputs({opt.stall_timeout_s, 0});
  opt.params =
      dataset::datagen_params_of(o.req, config::load_workload(o.workload), sysinfo::ram_bytes());
  opt.part_size = units::parse_size(o.part_size, "--s3-part-size");
  opt.threads = o.threads;
  check_thread_budget(o.threads ? o.threads : sysinfo::online_cpus(),
                      fmt::format("--threads {}", o.threads));
  opt.progress = !o.quiet;
  return report_datagen(o, dataset::generate_s3_dataset(opt), 1, "objects");
#else
  return 2; // s3_dataset refused it
#endif
}

// The generation's options from the command line; "5x-ram" counts every host of the job.
dataset::datagen_options options_of(const datagen_cli& o, std::uint64_t ram) {
  dataset::datagen_options opt;
  opt.stall_timeout_s = config::stall_timeout_of(o.stall_timeout);
  core::watch_inputs({opt.stall_timeout_s, 0});
  const auto profile = config::load_workload(o.workload);
  opt.dir = o.dataset;
  opt.params = dataset::datagen_params_of(o.req, profile, ram);
  opt.threads = o.threads;
  check_thread_budget(o.threads ? o.threads : sysinfo::online_cpus(),
                      fmt::format("--threads {}", o.threads));
  return opt;
}

} // namespace

void setup_datagen(CLI::App& app, cli_context& ctx) {
  auto o = std::make_shared<datagen_cli>();
  auto* sub = app.add_subcommand("datagen", "Write a dataset for a workload profile");
  sub->add_option("--workload", o->workload,
                  "Workload profile: a name (resnet50, unet3d, ...) or a JSON file")
      ->required();
  sub->add_option("--dataset", o->dataset,
                  "Folder to write (new, empty, or an unfinished dlsize dataset), or "
                  "s3://BUCKET/PREFIX")
      ->required();
  sub->add_option("--size", o->req.size,
                  "Dataset size: 2GiB, 500GB, 1.5TiB, or a multiple of RAM such as 5x-ram");
  auto* files = sub->add_option("--files", o->req.files, "Number of files instead of --size");
  sub->add_option("--seed", o->req.seed, "Seed of sizes and contents")->capture_default_str();
  sub->add_option(
      "--layout", o->req.layout,
      "files (one sample per file) or shards (records per file); default from the profile");
  auto* records = sub->add_option("--records-per-file", o->req.records_per_file,
                                  "Records per shard file (layout shards)");
  add_worker_options(*sub, o->threads, o->stall_timeout, o->quiet, o->s3, "Writer", "write");
  sub->add_option("--s3-part-size", o->part_size,
                  "Objects above this size are put by multipart upload, in parts of this size")
      ->capture_default_str();
  sub->callback([o, files, records, sub, &ctx] {
    o->req.files_given = files->count() > 0;
    o->req.records_per_file_given = records->count() > 0;
    o->given = given_long_options(*sub);
    ctx.exit_code = run_datagen(*o);
  });
}

} // namespace dlsize::cli
