// dlsize bench: run a workload against a dataset (storage only, or training with emulated
// accelerators) and write a report. Options may come from a JSON run config (--config); with
// no --workload, --dataset or --config the embedded default (configs/quickstart.json) runs.
// The options are parsed into pipeline::bench_job_options; pipeline::run_bench_job runs the job.
#include <cstdio>
#include <memory>

#include "allreduce_options.hpp"
#include "commands.hpp"
#include "config/bench_rules.hpp"
#include "pipeline/bench_job.hpp"
#include "report/report_io.hpp"
#include "report/rules_edition.hpp"
#include "run_config.hpp"
#include "s3_options.hpp"

namespace dlsize::cli {
namespace {

struct bench_cli {
  std::string config;
  std::string replay;
  pipeline::bench_job_options job;
};

// Where the options come from, the workload, the dataset and the job's accelerators.
void add_run_options(CLI::App& cmd, bench_cli& o) {
  pipeline::bench_job_options& j = o.job;
  cmd.add_option("--config", o.config,
                 "Run config: a JSON file whose keys are these long option names (the command "
                 "line overrides it), or an embedded name (quickstart)");
  cmd.add_option("--replay", o.replay,
                 "Rerun the run a report records: its config block applied as by --config (the "
                 "command line overrides it); the job must have the report's rank count");
  // Hidden: sweep's check of a point before any point runs (sweep --dry-run included).
  cmd.add_option("--check-only", j.check_ranks,
                 "Check the options as for RANKS ranks, then end (exit 0 or 2); runs nothing")
      ->group("");
  cmd.add_option("--workload", j.workload,
                 "Workload profile name (resnet50, unet3d, ...) or JSON file");
  cmd.add_option("--dataset", j.dataset, "Dataset folder made by dlsize datagen");
  cmd.add_option("--index", j.index,
                 "Read the dataset through its index (dlsize index DIR --out INDEX); without "
                 "--dataset, the index's DIR");
  cmd.add_option("--on-change", j.on_change,
                 "With --index, a file changed since indexing: stop (the run ends, naming it) "
                 "or skip (left out, counted and named)");
  cmd.add_option(
      "--generate", j.generate,
      "Generate the dataset at --dataset with this size (2GiB, 5x-ram) if it does not exist yet");
  cmd.add_option("--accelerator", j.accelerator,
                 "none (storage only), emulated:TYPE (TYPE: an accelerator of the profile such as "
                 "h100, or a calibration JSON file)");
  cmd.add_option("--accelerators", j.accelerators,
                 "Emulated accelerators of the whole job, shared equally by its ranks (default: "
                 "one per rank)");
  cmd.add_option(
      "--accelerators-per-rank", j.accelerators_per_rank,
      "Emulated accelerators each rank (process) drives; the job has this many times the ranks");
  cmd.add_option("--rank-timeout", j.rank_timeout,
                 "How long a rank that stopped answering is waited for before the job ends, "
                 "naming it (MPI runs)");
  cmd.add_option("--stall-timeout", j.stall_timeout,
                 "Stop the run, naming the stuck file, when no byte was read and no step taken "
                 "this long while a read waits (a hung mount; MPI runs: any rank); 0: never");
  cmd.add_option("--nic-bandwidth", j.nic_bandwidth,
                 "The NICs' rates as declared, since a NIC's reported speed can lie (a veth's, a "
                 "bond's): RATE for every NIC, NIC=RATE for that NIC of every host, "
                 "HOST:NIC=RATE or HOST:RATE for one host's, comma-separated (eth0=200Mb/s); "
                 "hosts[].nics and limited_by judge what each NIC carried by it");
}

// The training run's options: the workload's step, the AU threshold, the allreduce model.
void add_training_options(CLI::App& cmd, pipeline::bench_job_options& j) {
  cmd.add_option("--batch-size", j.batch_size,
                 "Samples per step (0: the profile's value for the accelerator)");
  cmd.add_option("--compute-time", j.compute_time,
                 "Compute time per batch, e.g. 224ms (default: the profile's)");
  cmd.add_option("--compute-time-stdev", j.compute_time_stdev,
                 "Spread of the compute time (normal, clipped at 3 sigma)");
  cmd.add_option("--rules", j.rules, report::kRulesHelp)->capture_default_str();
  cmd.add_option("--au-threshold", j.au_threshold,
                 "Accelerator utilization a run must reach to pass, above 0 and at most 1 "
                 "(default: the profile's)");
  cmd.add_option("--prefetch", j.prefetch,
                 "Batches loaded ahead per accelerator (the prefetch queue's depth)");
  cmd.add_flag(
      "--sync-steps", j.sync_steps,
      "A barrier across accelerators after every step (stands in for the gradient allreduce)");
  add_allreduce_options(cmd, j.allreduce, true);
  cmd.add_option("--preprocess", j.preprocess,
                 "CPU preprocessing per sample, e.g. 200us: checksum and float conversion of the "
                 "bytes, then more passes until this CPU time is spent");
  cmd.add_option("--precision", j.precision,
                 "--accelerator cuda: fp16 (mixed precision on tensor cores), tf32 or fp32");
}

// The report, and how the dataset is read.
void add_io_options(CLI::App& cmd, pipeline::bench_job_options& j) {
  cmd.add_option("--out", j.out,
                 "Report file to write (must not exist; default "
                 "reports/bench-WORKLOAD-UTCTIME.json)");
  cmd.add_option("--status-interval", j.status_interval,
                 "How often a running bench rewrites its partial report (OUT.partial-PID), so a "
                 "killed run loses at most this much");
  cmd.add_option("--engine", j.engine,
                 "I/O engine: io_uring or psync (pread threads); an s3:// dataset is read by the "
                 "s3 engine (curl multi handles), whatever the default");
  cmd.add_option("--cache", j.cache,
                 "direct (O_DIRECT), buffered, or uncached (RWF_DONTCACHE or fadvise)");
  cmd.add_option("--client-ram", j.client_ram,
                 "Emulate a client with this much RAM (256MiB): the readers run in a child memory "
                 "cgroup whose limit is this plus the process's own memory, the dataset's pages "
                 "evicted first; needs --cache buffered");
  cmd.add_option("--queue-depth", j.queue_depth, "Requests in flight per reader (io_uring)");
  cmd.add_option("--request-size", j.request_size, "Largest read request, a multiple of 4 KiB");
  cmd.add_option("--readers", j.readers,
                 "Reader threads, one io_uring ring each (they also run --preprocess)");
  cmd.add_option("--epochs", j.epochs, "Passes over the dataset, each in a new random order");
  cmd.add_option("--seed", j.seed,
                 "Seed of the epoch orders (epoch e uses seed + e) and compute-time draws");
  cmd.add_option("--max-read-rate", j.max_read_rate,
                 "Cap on read bandwidth over all readers, e.g. 300MB/s");
  cmd.add_option(
      "--open", j.open,
      "keep: open every file once (as fio); per-sample: open-read-close each sample (as loaders)");
  cmd.add_option("--shard-read", j.shard_read,
                 "Shard layouts: records (random record reads by index, as DALI's tfrecord2idx) "
                 "or stream (each epoch's shuffled shards dealt to the accelerators, each read "
                 "in file order, as tf.data's interleave)");
}

// How long, how often, the label, the checkpoints, the checks and the S3 connection.
void add_run_shape_options(CLI::App& cmd, pipeline::bench_job_options& j) {
  cmd.add_option("--time-limit", j.time_limit,
                 "Stop after this long (e.g. 60s), reporting what was measured");
  cmd.add_option("--sample-interval", j.sample_interval, "Telemetry sampling interval");
  cmd.add_option("--label", j.label,
                 "Name of the backend under test (letters, digits, '.', '_', '-'; up to 64), "
                 "shown in summaries and used by compare and size to tell backends apart "
                 "(default: \"PATH (FS_TYPE)\")");
  cmd.add_option("--checkpoint-every", j.checkpoint_every,
                 "Training runs: pause the accelerators to write the workload's checkpoint "
                 "every STEPS or DURATION (500steps, 30min; a bare number is refused), or "
                 "optimal: after the first step, then at the goodput model's interval for that "
                 "checkpoint's pause and --mttf");
  cmd.add_option("--mttf", j.mttf,
                 "With --checkpoint-every optimal: the mean time to failure of one accelerator "
                 "(default 50000h)");
  cmd.add_option("--checkpoint-dir", j.checkpoint_dir,
                 "Folder the checkpoints are written to (new or empty; removed at the end)");
  cmd.add_option("--checkpoint-scale", j.checkpoint_scale,
                 "Every rank's checkpoint share times this fraction, in (0, 1] (default 1)");
  cmd.add_flag("--verify", j.verify,
               "Check every record's header and checksum (storage only); with --index, every "
               "TFRecord record's masked CRC32Cs");
  cmd.add_flag("--quiet", j.quiet, "No progress line and no summary on stdout");
  add_s3_options(cmd, j.s3);
}

// The options in effect once the run config (or the report's, or the embedded default) is
// applied: the job gets them, with what was given and the command line.
void apply_run_source(CLI::App& cmd, bench_cli& o, const cli_context& ctx) {
  pipeline::bench_job_options& j = o.job;
  watch_inputs_as_given(j.stall_timeout, j.time_limit);
  config::check_run_source(o.replay, o.config);
  if (!o.replay.empty()) {
    j.replay_ranks = apply_replay(cmd, o.replay);
  } else if (!o.config.empty()) {
    apply_run_config(cmd, o.config);
  } else if (j.workload.empty() && j.dataset.empty()) {
    std::fprintf(stderr,
                 "bench: no --workload, --dataset or --config: running the embedded default "
                 "(configs/quickstart.json)\n");
    apply_run_config(cmd, "quickstart");
  }
  j.given = given_long_options(cmd);
  j.effective = effective_config(cmd);
  j.given_config = given_options(cmd);
  j.command_line = report::command_line_json(ctx.argc, ctx.argv);
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
  add_run_options(*sub, *o);
  add_training_options(*sub, o->job);
  add_io_options(*sub, o->job);
  add_run_shape_options(*sub, o->job);
  sub->callback([o, sub, &ctx] {
    apply_run_source(*sub, *o, ctx);
    ctx.exit_code = pipeline::run_bench_job(o->job);
  });
}

} // namespace dlsize::cli
