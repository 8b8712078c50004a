// dlsize bench: run a workload against a dataset (storage only, or training with emulated
// accelerators) and write a report. Options may come from a JSON run config (--config); with
// no --workload, --dataset or --config the embedded default (configs/quickstart.json) runs.
#include <cstdio>
#include <filesystem>
#include <optional>
#include <set>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <fmt/format.h>

#include "accel/cuda_accelerator.hpp"
#include "accel/cuda_backend.hpp"
#include "allreduce_options.hpp"
#include "cluster/agreement.hpp"
#include "cluster/communicator.hpp"
#include "cluster/hosts.hpp"
#include "cluster/job_end.hpp"
#include "commands.hpp"
#include "config/accelerator_spec.hpp"
#include "config/bench_rules.hpp"
#include "config/workload.hpp"
#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/input_watch.hpp"
#include "core/json_checks.hpp"
#include "core/output_file.hpp"
#include "core/sysinfo.hpp"
#include "core/thread_budget.hpp"
#include "core/units.hpp"
#include "dataset/datagen.hpp"
#include "dataset/datagen_job.hpp"
#include "dataset/index_file.hpp"
#include "dataset/index_layout.hpp"
#include "dataset/layout.hpp"
#include "pipeline/cache_emulation.hpp"
#include "pipeline/storage_bench.hpp"
#include "pipeline/training_run.hpp"
#include "pipeline/warm_storage.hpp"
#include "render/terminal_summary.hpp"
#include "report/backend_identity.hpp"
#include "report/bench_report.hpp"
#include "report/fs_separation.hpp"
#include "report/mlperf_validity.hpp"
#include "report/partial_report.hpp"
#include "report/report_io.hpp"
#include "report/rules_edition.hpp"
#include "report/workload_hash.hpp"
#include "run_config.hpp"
#include "s3_options.hpp"

namespace dlsize::cli {
namespace {

struct bench_cli {
  std::string config;
  std::string replay;
  std::uint64_t replay_ranks = 0; // of the report given to --replay; 0: any
  std::uint64_t check_ranks = 0;  // --check-only RANKS (sweep): check the options as for so many
                                  // ranks, then end; 0: run
  std::string workload;
  std::string dataset;
  std::string index; // a dataset read through its index (dlsize index)
  std::string on_change = "stop";
  std::string generate;
  std::string accelerator = "none";
  std::uint64_t accelerators = 0;          // the job's; 0: per rank × ranks
  std::uint64_t accelerators_per_rank = 0; // 0: accelerators / ranks, or 1
  std::string rank_timeout = "60s";
  std::string stall_timeout = "60s";
  std::uint64_t batch_size = 0;
  std::string compute_time;
  std::string compute_time_stdev;
  std::string au_threshold;
  std::string rules = "v3"; // the MLPerf Storage edition the run is judged by
  std::uint64_t prefetch = 2;
  bool sync_steps = false;
  config::allreduce_request allreduce;
  std::string preprocess;
  std::string precision = "fp16";
  std::string out;
  std::string engine = "io_uring";
  std::string cache = "direct";
  std::string client_ram; // the cache emulation's RAM; empty: none
  unsigned queue_depth = 16;
  std::string request_size = "1MiB";
  unsigned readers = 1;
  std::uint64_t epochs = 1;
  std::uint64_t seed = 0;
  std::string max_read_rate;
  std::string open = "keep";
  std::string shard_read = "records";
  std::string time_limit;
  std::string sample_interval = "1s";
  std::string label;
  std::string status_interval = "30s";
  std::string checkpoint_every; // empty: no checkpoints
  std::string checkpoint_dir;
  double checkpoint_scale = 1;
  bool verify = false;
  bool quiet = false;
  s3::settings s3; // --s3-*: how to reach an s3:// dataset
};

io::engine_options engine_options_of(const bench_cli& o, bool keep_open, bool in_s3) {
  io::engine_options e;
  e.engine = in_s3 ? "s3" : o.engine;
  e.cache = io::parse_cache_mode(o.cache);
  e.queue_depth = o.queue_depth;
  // Larger than any valid size stays invalid (the rule is the engine's).
  e.request_size = static_cast<std::uint32_t>(
      std::min<std::uint64_t>(units::parse_size(o.request_size, "--request-size"), UINT32_MAX));
  e.readers = o.readers;
  e.max_read_rate =
      o.max_read_rate.empty() ? 0 : units::parse_rate(o.max_read_rate, "--max-read-rate");
  e.keep_open = keep_open;
  io::check_engine_options(e);
  return e;
}

// What the rules of config::bench_rules look at: the options as given, and which were.
config::bench_request request_of(const bench_cli& o, const CLI::App& cmd) {
  config::bench_request r;
  r.workload = o.workload;
  r.dataset = o.dataset;
  r.index = o.index;
  r.rank_timeout = o.rank_timeout;
  r.sample_interval = o.sample_interval;
  r.status_interval = o.status_interval;
  r.time_limit = o.time_limit;
  r.stall_timeout = o.stall_timeout;
  r.shard_read = o.shard_read;
  r.open = o.open;
  r.label = o.label;
  r.checkpoint_every = o.checkpoint_every;
  r.checkpoint_dir = o.checkpoint_dir;
  r.checkpoint_scale = o.checkpoint_scale;
  r.epochs = o.epochs;
  r.replay_ranks = o.replay_ranks;
  r.accelerators = o.accelerators;
  r.accelerators_per_rank = o.accelerators_per_rank;
  r.verify = o.verify;
  r.given = given_long_options(cmd);
  return r;
}

// --generate: makes the dataset on first use, as the embedded default does; every rank of a job
// writes its share. Rank 0 decides whether it is needed (no manifest yet).
void generate_if_missing(const bench_cli& o, const config::workload_profile& profile,
                         double stall_timeout_s, cluster::communicator& comm) {
  if (o.generate.empty())
    return;
  const bool missing =
      cluster::agree(comm,
                     [&] {
                       return !core::watched_exists(std::filesystem::path(o.dataset) /
                                                    dataset::kManifestName);
                     })[0]
          .get<bool>();
  if (!missing)
    return;
  const std::uint64_t ram = cluster::ram_of_hosts(comm);
  dataset::dataset_params p = dataset::params_from_profile(profile);
  p.seed = o.seed;
  cluster::agree(comm, [&] {
    p.files = dataset::files_for_size(p, units::parse_size(o.generate, "--generate", ram));
    return nlohmann::json(nullptr);
  });
  if (comm.rank() == 0)
    std::fprintf(stderr,
                 "bench: generating a %s %s dataset in %s (first use; later runs reuse it)\n",
                 o.generate.c_str(), profile.name.c_str(), o.dataset.c_str());
  dataset::datagen_options g;
  g.dir = o.dataset;
  g.params = p;
  g.progress = !o.quiet && comm.rank() == 0;
  g.stall_timeout_s = stall_timeout_s;
  const auto r = dataset::generate_dataset_job(g, comm);
  if (r.interrupted)
    throw cluster::job_error(1, "dataset generation interrupted; rerun the same command to resume");
}

// Readers the kernel holds (a hung server) are named once the report is safe on disk; the
// process then ends without them.
void name_abandoned(const std::vector<std::string>& abandoned) {
  for (const auto& a : abandoned)
    std::fprintf(stderr, "dlsize: stuck in the kernel: %s\n", a.c_str());
}

// An s3:// dataset is read by the s3 engine: the options of files mean nothing for objects and
// are refused, named, when given (on the command line or in a config).
void refuse_file_options(const std::set<std::string>& given, const bench_cli& o) {
  if (given.count("--engine") && o.engine != "s3")
    throw usage_error(fmt::format("--engine {}: an s3:// dataset is read by the s3 engine. "
                                  "valid: --engine s3, or no --engine",
                                  o.engine));
  const std::pair<const char*, const char*> refused[] = {
      {"cache", "objects have no page cache to bypass or fill"},
      {"client-ram", "the cache emulation caches pages of files"},
      {"open", "objects are not opened"},
      {"generate", "generate an S3 dataset with dlsize datagen --dataset s3://..."}};
  for (const auto& [name, why] : refused)
    if (given.count(fmt::format("--{}", name)))
      throw usage_error(fmt::format("--{}: means nothing for an s3:// dataset ({}). valid: leave "
                                    "--{} out",
                                    name, why, name));
}

std::string absolute_path(const std::string& p) {
  return std::filesystem::absolute(p).lexically_normal().string();
}

// The report's config block: every option in effect with its resolved value, so that --replay
// (or --config) of it reruns the run: absolute paths, the accelerators and AU threshold as
// resolved, and no option the run's kind refuses (storage-only runs have no accelerators,
// emulated ones no --precision); unset optional ones and where the report goes are left out.
nlohmann::json replayable_config(const CLI::App& cmd, config::accelerator_kind kind,
                                 std::uint64_t accelerators, std::uint64_t ranks,
                                 double au_threshold) {
  nlohmann::json c = effective_config(cmd);
  // Where the report goes and the rules it is judged by are no part of the load.
  for (const char* k : {"out", "status-interval", "rules"})
    c.erase(k);
  drop_unused_allreduce_inputs(c);
  for (auto it = c.begin(); it != c.end();)
    it = it->is_null() ? c.erase(it) : std::next(it);
  const auto ds = c.find("dataset"); // find, not []: [] would add a null "dataset" to the config
  const bool in_s3 = ds != c.end() && ds->is_string() && s3::is_s3_url(ds->get<std::string>());
  for (const char* k : {"dataset", "index"})
    if (c.contains(k) && c[k].is_string() && !(in_s3 && std::string(k) == "dataset"))
      c[k] = absolute_path(c[k].get<std::string>());
  // Objects are read by the s3 engine alone; the file options it refuses are left out.
  if (in_s3) {
    c["engine"] = "s3";
    for (const char* k : {"cache", "open", "client-ram"})
      c.erase(k);
  }
  // Without --checkpoint-every its companions' defaults would be refused on a replay.
  const auto every = c.find("checkpoint-every");
  if (every == c.end() || !every->is_string() || every->get<std::string>().empty())
    for (const char* k : {"checkpoint-every", "checkpoint-dir", "checkpoint-scale"})
      c.erase(k);
  else if (c["checkpoint-dir"].is_string() &&
           !s3::is_s3_url(c["checkpoint-dir"].get<std::string>()))
    c["checkpoint-dir"] = absolute_path(c["checkpoint-dir"].get<std::string>());
  if (c["workload"].is_string() && core::names_a_file(c["workload"].get<std::string>()))
    c["workload"] = absolute_path(c["workload"].get<std::string>());
  const std::string acc = c["accelerator"].is_string() ? c["accelerator"].get<std::string>() : "";
  if (acc.rfind("emulated:", 0) == 0 && core::names_a_file(acc.substr(9)))
    c["accelerator"] = "emulated:" + absolute_path(acc.substr(9));
  if (kind == config::accelerator_kind::none) {
    for (const char* k : {"accelerators", "accelerators-per-rank", "prefetch", "sync-steps",
                          "preprocess", "au-threshold", "precision"})
      c.erase(k);
    return c;
  }
  c["accelerators"] = accelerators;
  c["accelerators-per-rank"] = accelerators / ranks;
  c["au-threshold"] = au_threshold;
  if (kind != config::accelerator_kind::cuda)
    c.erase("precision");
  return c;
}

// Rank 0's report file: --out, or reports/bench-WORKLOAD-TIME.json; reserved before the run.
output_file reserve_output(const bench_cli& o, const CLI::App& cmd, const std::string& workload) {
  if (cmd.get_option("--out")->count() > 0)
    return output_file(o.out, "--out");
  output_file f(default_output_path("bench", workload), "--out", true);
  std::fprintf(stderr, "bench: no --out given: the report goes to %s\n", f.path().c_str());
  return f;
}

// Rank 1's report when rank 0 was lost: --out as rank 0 would have written it, unless something
// is there (nothing is overwritten: the report is then not written, and stderr says why).
void reserve_stand_in(const bench_cli& o, const CLI::App& cmd, const std::string& workload,
                      std::optional<output_file>& out) {
  try {
    out.emplace(reserve_output(o, cmd, workload));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dlsize: no report from rank 1 either: %s\n", e.what());
  }
}

// Rank 0 rewrites the partial report every --status-interval while the run goes on.
pipeline::status_hook partial_writer(output_file* out, const nlohmann::json& cmdline,
                                     const nlohmann::json& config, double interval_s) {
  if (!out)
    return {};
  return {interval_s, [=](double el, const pipeline::run_counters& c) {
            const auto r = report::partial_report(report::report_header("bench", cmdline), config,
                                                  {el, c.bytes, c.samples}, interval_s);
            out->write_partial(r.dump(2) + "\n");
          }};
}

// The figures a finished report gets from outside the run: the warm epochs' storage, and the
// cache emulation's, which ends here (the process leaves its cgroup before the report is written).
void add_cache_figures(nlohmann::json& report, pipeline::cache_emulation* emulation) {
  if (emulation) {
    emulation->stop();
    report["cache_emulation"] = emulation->to_json();
    // The client's RAM is the emulated one: what size takes for the cache in its projections.
    const double ram = report["cache_emulation"]["client_ram_bytes"].get<double>();
    report["dataset"]["client_ram_bytes"] = report["cache_emulation"]["client_ram_bytes"];
    report["dataset"]["bytes_over_ram"] = report["dataset"]["bytes"].get<double>() / ram;
  }
  if (report.contains("storage"))
    report["storage"]["warm_epochs"] = pipeline::warm_storage_json(report);
}

// The ranks that write no report leave the host's cgroup as soon as their run ends, so that
// rank 0 (which ends its emulation when it writes the report) finds it empty. A child that
// cannot be removed is not this rank's run failing: it is said and left.
void leave_cache_emulation(pipeline::cache_emulation& emulation) {
  try {
    emulation.stop();
  } catch (const run_error& e) {
    std::fprintf(stderr, "dlsize: warning: %s\n", e.what());
  }
}

// v3.0 §3.4.2's record (report/fs_separation.hpp), taken before the run's first read (as
// provenance is): at report time a stat of a hung mount would block the report.
std::optional<nlohmann::json> g_fs_separation;

int finish(nlohmann::json report, bool failed, const bench_cli& o, std::optional<output_file>& out,
           const nlohmann::json& config_given, const std::vector<std::string>& abandoned,
           pipeline::cache_emulation* emulation = nullptr) {
  if (report.is_null()) {
    name_abandoned(abandoned);
    return failed ? 1 : 0; // not rank 0: rank 0 writes the job's report
  }
  add_cache_figures(report, emulation);
  if (out && g_fs_separation)
    report["fs_separation"] = *g_fs_separation;
  report["workload_hash"] = report::workload_hash_json(report);
  try { // the report records which rules judged it; the summary prints that verdict
    report["mlperf_validity"] = report::to_json(report::mlperf_validity(
        report::bench_report::from_json(report), report::parse_rules_edition(o.rules, "--rules")));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dlsize: no MLPerf Storage verdict (%s)\n", e.what());
  }
  if (!o.quiet) {
    // The summary reads the report typed; whatever it finds, the report is still written.
    try {
      std::fputs(render::bench_summary(report::bench_report::from_json(report)).c_str(), stdout);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "dlsize: no summary (%s); the report is written as measured\n",
                   e.what());
    }
  }
  report["config_given"] = config_given;
  const output_place where = out->commit(report.dump(2) + "\n");
  if (!where.path.empty())
    std::printf("report: %s\n", where.path.c_str());
  std::fflush(stdout);
  name_abandoned(abandoned);
  if (where.fell_back)
    failed = true;
  if (report.contains("verify"))
    for (const auto& p : report["verify"]["problems"])
      std::fprintf(stderr, "mismatch: %s\n", p.get<std::string>().c_str());
  if (failed) {
    if (report["status"] != "complete")
      std::fprintf(stderr, "dlsize: bench %s: %s\n", report["status"].get<std::string>().c_str(),
                   report.value("reason", "").c_str());
    return 1;
  }
  return 0;
}

// A stop (a signal, --stall-timeout, --time-limit) that ended a read of the manifest or the index
// before the run began: the report says so, incomplete, and the command fails.
int stopped_before_run(const std::string& why, std::optional<output_file>& out,
                       const nlohmann::json& cmdline, const nlohmann::json& config,
                       const nlohmann::json& config_given) {
  nlohmann::json r =
      report::stopped_before_run_report(report::report_header("bench", cmdline), config, why);
  r["config_given"] = config_given;
  const output_place where = out->commit(r.dump(2) + "\n");
  if (!where.path.empty())
    std::printf("report: %s\n", where.path.c_str());
  std::fflush(stdout);
  std::fprintf(stderr, "dlsize: bench incomplete: %s\n", r["reason"].get<std::string>().c_str());
  return 1;
}

int run_bench(const bench_cli& o, const CLI::App& cmd, const cli_context& ctx) {
  (void)report::parse_rules_edition(o.rules, "--rules"); // refused before anything runs
  cluster::communicator& comm = cluster::world();
  const auto ranks = o.check_ranks ? o.check_ranks : static_cast<std::uint64_t>(comm.size());
  config::workload_profile profile;
  config::accelerator_spec spec;
  io::engine_options eo;
  double interval = 0, time_limit = 0, preprocess_s = 0, au_threshold = 0, stall_timeout = 0,
         status_s = 0;
  std::uint64_t client_ram = 0;
  dataset::index_request index;
  std::optional<output_file> out;
  std::uint64_t accelerators = 0;
  config::allreduce_setup allreduce;
  config::layout_choice layout;
  pipeline::training_checkpoint_options checkpoint;
  s3::settings s3_settings = o.s3;
  std::optional<s3::location> s3_where;
  // Everything that can be wrong with the options, checked on every rank before any work; then
  // every rank must have been given the same command and options.
  const auto given = cluster::agree(comm, [&] {
    const config::bench_request req = request_of(o, cmd);
    const config::bench_timing timing = config::check_bench_request(req, ranks);
    comm.set_timeout_s(timing.rank_timeout_s);
    index.index = o.index;
    index.verify = o.verify;
    index.change = dataset::parse_on_change(o.on_change);
    profile = config::load_workload(o.workload);
    config::require_dataset(profile, "bench");
    config::preset_overrides over;
    if (o.batch_size)
      over.batch_size = o.batch_size;
    if (!o.compute_time.empty())
      over.compute_time_s = units::parse_duration(o.compute_time, "--compute-time");
    if (!o.compute_time_stdev.empty())
      over.compute_time_stdev_s =
          units::parse_duration(o.compute_time_stdev, "--compute-time-stdev");
    spec = config::resolve_accelerator(o.accelerator, profile, over,
                                       [] { accel::cuda_backend::get().require_device(0); });
    if (!o.index.empty())
      dataset::check_index_use(
          {!o.generate.empty(), !o.client_ram.empty(),
           o.shard_read == "stream" && spec.kind == config::accelerator_kind::none});
    config::require_allreduce_for_inputs(o.allreduce, given_long_options(cmd));
    allreduce = config::resolve_allreduce(o.allreduce, profile, spec);
    interval = timing.sample_interval_s;
    status_s = timing.status_interval_s;
    time_limit = timing.time_limit_s;
    stall_timeout = timing.stall_timeout_s;
    core::watch_inputs({stall_timeout, time_limit});
    // An index of a bucket names it: without --dataset, the bucket is the index's.
    const std::string named =
        o.dataset.empty() && !o.index.empty() ? dataset::index_dir(o.index).string() : o.dataset;
    s3_where = s3_dataset(named, "--dataset", s3_settings);
    if (s3_where)
      refuse_file_options(given_long_options(cmd), o);
    else if (o.engine == "s3")
      throw usage_error(fmt::format("--engine s3: reads a dataset in a bucket (--dataset "
                                    "s3://BUCKET/PREFIX); '{}' is a folder. valid: io_uring, psync",
                                    o.dataset));
    eo = engine_options_of(o, timing.keep_open, s3_where.has_value());
    if (!o.client_ram.empty()) {
      client_ram = units::parse_size(o.client_ram, "--client-ram");
      pipeline::check_cache_emulation(client_ram, eo);
    }
    accelerators = config::check_accelerator_rules(req, spec.kind, ranks);
    if (spec.kind != config::accelerator_kind::none) {
      if (allreduce.active())
        layout = config::resolve_layout(o.allreduce, accelerators, ranks,
                                        static_cast<std::uint64_t>(comm.where().nodes));
      preprocess_s = o.preprocess.empty() ? 0 : units::parse_duration(o.preprocess, "--preprocess");
      au_threshold = o.au_threshold.empty()
                         ? profile.au_threshold
                         : units::parse_fraction(o.au_threshold, "--au-threshold");
      const config::bench_checkpoint c = config::check_checkpoint_options(req, profile);
      checkpoint = {c.every, c.dir, c.scale, std::nullopt};
      s3::settings ck_settings = o.s3;
      if (const auto where = s3_dataset(c.dir.string(), "--checkpoint-dir", ck_settings)) {
        // Parts of 64 MiB (S3's 10,000 parts hold 640 GiB), a whole number of blocks.
        const std::uint64_t block = eo.request_size;
        checkpoint.s3 = pipeline::s3_checkpoint{{*where, ck_settings},
                                                ((64u << 20) + block - 1) / block * block};
      }
      if (spec.kind == config::accelerator_kind::cuda)
        accel::parse_precision(o.precision, "--precision");
    }
    // Readers, this rank's accelerators, and the monitor, telemetry and link threads.
    const std::uint64_t per_rank = accelerators / ranks;
    check_thread_budget(
        eo.readers + per_rank + 3,
        fmt::format("--readers {} and {} accelerator(s) per rank", eo.readers, per_rank));
    // Last: nothing is reserved for options that are refused.
    if (comm.rank() == 0 && !o.check_ranks)
      out.emplace(reserve_output(o, cmd, profile.name));
    return nlohmann::json{{"command", "bench"}, {"options", effective_config(cmd)}};
  });
  cluster::require_same(comm, given, "command and options");
  if (o.check_ranks)
    return 0;
  const auto cmdline = report::command_line_json(ctx.argc, ctx.argv);
  const nlohmann::json config_given = given_options(cmd);
  nlohmann::json config = replayable_config(cmd, spec.kind, accelerators, ranks, au_threshold);
  try {
    std::optional<pipeline::s3_dataset> in_s3;
    if (s3_where)
      in_s3 = pipeline::s3_dataset{*s3_where, s3_settings};
    else
      generate_if_missing(o, profile, stall_timeout, comm);
    const std::string dataset_dir =
        o.dataset.empty() ? dataset::index_dir(o.index).string() : o.dataset;
    if (out && !in_s3)
      g_fs_separation = report::fs_separation_json(dataset_dir, out->path(), "dataset");
    // Before the readers' rings and buffers exist, so that all they use is charged to the child.
    std::unique_ptr<pipeline::cache_emulation> emulation;
    const auto shards =
        o.shard_read == "records" ? pipeline::shard_read::records : pipeline::shard_read::stream;
    if (client_ram)
      emulation = std::make_unique<pipeline::cache_emulation>(client_ram, o.dataset, comm);

    if (spec.kind == config::accelerator_kind::none) {
      pipeline::storage_bench_options opt;
      opt.workload = profile.name;
      opt.dataset = dataset_dir;
      opt.index = index;
      opt.s3 = in_s3;
      opt.io = eo;
      opt.shards = shards;
      opt.epochs = o.epochs;
      opt.seed = o.seed;
      opt.verify = o.verify;
      opt.progress = !o.quiet;
      opt.time_limit_s = time_limit;
      opt.stall_timeout_s = stall_timeout;
      opt.sample_interval_s = interval;
      opt.config = config;
      opt.status = partial_writer(out ? &*out : nullptr, cmdline, config, status_s);
      auto res = pipeline::run_storage_bench(opt, cmdline);
      return finish(res.report, res.failed, o, out, config_given, res.abandoned, emulation.get());
    }

    pipeline::training_options opt;
    opt.workload = profile;
    opt.workload.au_threshold = au_threshold;
    opt.accelerator = spec;
    opt.dataset = dataset_dir;
    opt.index = index;
    opt.s3 = in_s3;
    opt.io = eo;
    opt.accelerators = accelerators;
    opt.prefetch = o.prefetch;
    opt.shards = shards;
    opt.sync_steps = o.sync_steps;
    opt.allreduce = allreduce;
    opt.layout = layout.layout;
    opt.declared_layout = layout.declared;
    opt.preprocess_s = preprocess_s;
    opt.checkpoint = checkpoint;
    opt.precision = o.precision;
    opt.epochs = o.epochs;
    opt.seed = o.seed;
    opt.sample_interval_s = interval;
    opt.time_limit_s = time_limit;
    opt.stall_timeout_s = stall_timeout;
    opt.progress = !o.quiet;
    opt.config = config;
    opt.status = partial_writer(out ? &*out : nullptr, cmdline, config, status_s);
    std::unique_ptr<pipeline::training_run> run;
    const auto fingerprints = cluster::agree(comm, [&] {
      run = std::make_unique<pipeline::training_run>(opt, comm);
      return run->fingerprint();
    });
    cluster::require_same(comm, fingerprints, "run (options and dataset)");
    run->join_ranks();
    auto res = run->run(cmdline);
    if (emulation && comm.rank() != 0)
      leave_cache_emulation(*emulation);
    return cluster::end_job(comm, {res.broken, res.root_lost, res.reason}, [&](bool broken) {
      if (!out && !res.report.is_null()) // rank 1 standing in for a lost rank 0
        reserve_stand_in(o, cmd, profile.name, out);
      if (!out && !res.report.is_null())
        return 1;
      return finish(res.report, broken || res.failed, o, out, config_given, res.abandoned,
                    emulation.get());
    });
  } catch (const core::input_stopped& e) {
    if (!out)
      throw;
    return stopped_before_run(e.what(), out, cmdline, config, config_given);
  }
}

} // namespace

void setup_bench(CLI::App& app, cli_context& ctx) {
  auto o = std::make_shared<bench_cli>();
  auto* sub =
      app.add_subcommand("bench", "Run a workload against a dataset and write a JSON report");
  sub->option_defaults()->always_capture_default()->multi_option_policy(
      CLI::MultiOptionPolicy::TakeLast);
  sub->footer("With no --workload, --dataset or --config, the embedded default runs "
              "(configs/quickstart.json):\n"
              "a 2 GiB resnet50 dataset under ./dlsize-data, generated on first use, read by 4 "
              "emulated a100s.");
  sub->add_option("--config", o->config,
                  "Run config: a JSON file whose keys are these long option names (the command "
                  "line overrides it), or an embedded name (quickstart)");
  sub->add_option("--replay", o->replay,
                  "Rerun the run a report records: its config block applied as by --config (the "
                  "command line overrides it); the job must have the report's rank count");
  // Hidden: sweep's check of a point before any point runs (sweep --dry-run included).
  sub->add_option("--check-only", o->check_ranks,
                  "Check the options as for RANKS ranks, then end (exit 0 or 2); runs nothing")
      ->group("");
  sub->add_option("--workload", o->workload,
                  "Workload profile name (resnet50, unet3d, ...) or JSON file");
  sub->add_option("--dataset", o->dataset, "Dataset folder made by dlsize datagen");
  sub->add_option("--index", o->index,
                  "Read the dataset through its index (dlsize index DIR --out INDEX); without "
                  "--dataset, the index's DIR");
  sub->add_option("--on-change", o->on_change,
                  "With --index, a file changed since indexing: stop (the run ends, naming it) "
                  "or skip (left out, counted and named)");
  sub->add_option(
      "--generate", o->generate,
      "Generate the dataset at --dataset with this size (2GiB, 5x-ram) if it does not exist yet");
  sub->add_option("--accelerator", o->accelerator,
                  "none (storage only), emulated:TYPE (TYPE: an accelerator of the profile such as "
                  "h100, or a calibration JSON file)");
  sub->add_option("--accelerators", o->accelerators,
                  "Emulated accelerators of the whole job, shared equally by its ranks (default: "
                  "one per rank)");
  sub->add_option(
      "--accelerators-per-rank", o->accelerators_per_rank,
      "Emulated accelerators each rank (process) drives; the job has this many times the ranks");
  sub->add_option("--rank-timeout", o->rank_timeout,
                  "How long a rank that stopped answering is waited for before the job ends, "
                  "naming it (MPI runs)");
  sub->add_option("--stall-timeout", o->stall_timeout,
                  "Stop the run, naming the stuck file, when no byte was read and no step taken "
                  "this long while a read waits (a hung mount; MPI runs: any rank); 0: never");
  sub->add_option("--batch-size", o->batch_size,
                  "Samples per step (0: the profile's value for the accelerator)");
  sub->add_option("--compute-time", o->compute_time,
                  "Compute time per batch, e.g. 224ms (default: the profile's)");
  sub->add_option("--compute-time-stdev", o->compute_time_stdev,
                  "Spread of the compute time (normal, clipped at 3 sigma)");
  sub->add_option("--rules", o->rules, report::kRulesHelp)->capture_default_str();
  sub->add_option("--au-threshold", o->au_threshold,
                  "Accelerator utilization a run must reach to pass, above 0 and at most 1 "
                  "(default: the profile's)");
  sub->add_option("--prefetch", o->prefetch,
                  "Batches loaded ahead per accelerator (the prefetch queue's depth)");
  sub->add_flag(
      "--sync-steps", o->sync_steps,
      "A barrier across accelerators after every step (stands in for the gradient allreduce)");
  add_allreduce_options(*sub, o->allreduce, true);
  sub->add_option("--preprocess", o->preprocess,
                  "CPU preprocessing per sample, e.g. 200us: checksum and float conversion of the "
                  "bytes, then more passes until this CPU time is spent");
  sub->add_option("--precision", o->precision,
                  "--accelerator cuda: fp16 (mixed precision on tensor cores), tf32 or fp32");
  sub->add_option("--out", o->out,
                  "Report file to write (must not exist; default "
                  "reports/bench-WORKLOAD-UTCTIME.json)");
  sub->add_option("--status-interval", o->status_interval,
                  "How often a running bench rewrites its partial report (OUT.partial-PID), so a "
                  "killed run loses at most this much");
  sub->add_option("--engine", o->engine,
                  "I/O engine: io_uring or psync (pread threads); an s3:// dataset is read by the "
                  "s3 engine (curl multi handles), whatever the default");
  sub->add_option("--cache", o->cache,
                  "direct (O_DIRECT), buffered, or uncached (RWF_DONTCACHE or fadvise)");
  sub->add_option("--client-ram", o->client_ram,
                  "Emulate a client with this much RAM (256MiB): the readers run in a child memory "
                  "cgroup whose limit is this plus the process's own memory, the dataset's pages "
                  "evicted first; needs --cache buffered");
  sub->add_option("--queue-depth", o->queue_depth, "Requests in flight per reader (io_uring)");
  sub->add_option("--request-size", o->request_size, "Largest read request, a multiple of 4 KiB");
  sub->add_option("--readers", o->readers,
                  "Reader threads, one io_uring ring each (they also run --preprocess)");
  sub->add_option("--epochs", o->epochs, "Passes over the dataset, each in a new random order");
  sub->add_option("--seed", o->seed,
                  "Seed of the epoch orders (epoch e uses seed + e) and compute-time draws");
  sub->add_option("--max-read-rate", o->max_read_rate,
                  "Cap on read bandwidth over all readers, e.g. 300MB/s");
  sub->add_option(
      "--open", o->open,
      "keep: open every file once (as fio); per-sample: open-read-close each sample (as loaders)");
  sub->add_option("--shard-read", o->shard_read,
                  "Shard layouts: records (random record reads by index, as DALI's tfrecord2idx) "
                  "or stream (each epoch's shuffled shards dealt to the accelerators, each read "
                  "in file order, as tf.data's interleave)");
  sub->add_option("--time-limit", o->time_limit,
                  "Stop after this long (e.g. 60s), reporting what was measured");
  sub->add_option("--sample-interval", o->sample_interval, "Telemetry sampling interval");
  sub->add_option("--label", o->label,
                  "Name of the backend under test (letters, digits, '.', '_', '-'; up to 64), "
                  "shown in summaries and used by compare and size to tell backends apart "
                  "(default: \"PATH (FS_TYPE)\")");
  sub->add_option("--checkpoint-every", o->checkpoint_every,
                  "Training runs: pause the accelerators to write the workload's checkpoint "
                  "every STEPS or DURATION (500steps, 30min; a bare number is refused)");
  sub->add_option("--checkpoint-dir", o->checkpoint_dir,
                  "Folder the checkpoints are written to (new or empty; removed at the end)");
  sub->add_option("--checkpoint-scale", o->checkpoint_scale,
                  "Every rank's checkpoint share times this fraction, in (0, 1] (default 1)");
  sub->add_flag("--verify", o->verify,
                "Check every record's header and checksum (storage only); with --index, every "
                "TFRecord record's masked CRC32Cs");
  sub->add_flag("--quiet", o->quiet, "No progress line and no summary on stdout");
  add_s3_options(*sub, o->s3);
  sub->callback([o, sub, &ctx] {
    watch_inputs_as_given(o->stall_timeout, o->time_limit);
    config::check_run_source(o->replay, o->config);
    if (!o->replay.empty()) {
      o->replay_ranks = apply_replay(*sub, o->replay);
    } else if (!o->config.empty()) {
      apply_run_config(*sub, o->config);
    } else if (o->workload.empty() && o->dataset.empty()) {
      std::fprintf(stderr,
                   "bench: no --workload, --dataset or --config: running the embedded default "
                   "(configs/quickstart.json)\n");
      apply_run_config(*sub, "quickstart");
    }
    ctx.exit_code = run_bench(*o, *sub, ctx);
  });
}

} // namespace dlsize::cli
