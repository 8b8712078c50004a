// dlsize checkpoint: every rank writes its share of a workload's checkpoint through io_uring,
// --writes times, then reads them back --reads times, verified, and rank 0 writes a report.
// The options are parsed into pipeline::checkpoint_job_options; pipeline::run_checkpoint_job
// runs the job.
#include <memory>

#include "commands.hpp"
#include "pipeline/checkpoint_job.hpp"
#include "report/report_io.hpp"
#include "report/rules_edition.hpp"
#include "run_config.hpp"
#include "s3_options.hpp"

namespace dlsize::cli {
namespace {

// What is written and read, how many times, and by which ranks.
void add_checkpoint_options(CLI::App& cmd, pipeline::checkpoint_job_options& o) {
  cmd.add_option("--workload", o.req.workload,
                 "Workload profile with a checkpoint block (llama3-8b, llama3-70b, llama3-405b, "
                 "llama3-1t, unet3d, resnet50) or JSON file");
  cmd.add_option("--dir", o.req.dir,
                 "Folder for the checkpoints: new or empty (with --writes 0: one written by "
                 "dlsize checkpoint --keep)");
  cmd.add_option("--writes", o.req.writes, "Checkpoints to write (MLPerf Storage: 10)");
  cmd.add_option("--reads", o.req.reads,
                 "Checkpoints to read back and verify afterwards, oldest first (MLPerf: 10)");
  cmd.add_option("--scale", o.scale,
                 "Every rank's share times this fraction, e.g. 0.01 (a smaller run of the "
                 "same layout)");
  cmd.add_flag("--subset", o.subset,
               "The launched ranks write the full job's shares of its first ranks (MLPerf's "
               "subset mode) instead of re-laying the job on them");
  cmd.add_option("--files-per-rank", o.req.files_per_rank,
                 "Shard files per rank and checkpoint, as DCP and DeepSpeed write several");
  cmd.add_flag("--keep", o.keep,
               "Leave the checkpoints in --dir (for a later --writes 0 --reads N)");
  cmd.add_option("--keep-last", o.req.keep_last,
                 "Only the newest N checkpoints coexist (older ones are removed as new ones "
                 "land); 0: all of them");
  cmd.add_option("--read-shift", o.read_shift,
                 "Rank r reads the shards of rank (r + K) mod ranks, so no client reads back "
                 "what its own cache holds");
}

// The report, the I/O, the checks and the S3 connection.
void add_io_options(CLI::App& cmd, pipeline::checkpoint_job_options& o) {
  cmd.add_option("--out", o.out,
                 "Report file to write (must not exist; default "
                 "reports/checkpoint-WORKLOAD-UTCTIME.json)");
  cmd.add_option("--label", o.req.label,
                 "Name of the backend under test (letters, digits, '.', '_', '-'; up to 64)");
  cmd.add_option("--cache", o.cache,
                 "direct (O_DIRECT: cold reads), buffered, or uncached (RWF_DONTCACHE or "
                 "fadvise)");
  cmd.add_option("--queue-depth", o.queue_depth, "Requests in flight per rank");
  cmd.add_option("--request-size", o.req.request_size,
                 "Write and read request size (each a checksummed block), a multiple of 4 KiB");
  cmd.add_option("--dedupe-percent", o.req.dedupe_percent,
                 "Percent of blocks whose payload repeats the rank's first block of the "
                 "checkpoint (fio's dedupe_percentage; headers stay unique)");
  cmd.add_option("--compress-percent", o.req.compress_percent,
                 "Percent of every 4 KiB of payload that is zeros (fio's "
                 "buffer_compress_percentage)");
  cmd.add_option("--time-limit", o.req.time_limit,
                 "Start no checkpoint write or read after this long (e.g. 60s), reporting what "
                 "was measured");
  cmd.add_option("--stall-timeout", o.req.stall_timeout,
                 "End the run when a write, fsync or read has not finished for this long "
                 "(a hung file system), naming it; 0: never");
  cmd.add_flag("--no-verify", o.no_verify,
               "Read the checkpoints back without checking their blocks (a plain read, to "
               "compare with fio's; the report says verification was off)");
  cmd.add_flag("--drop-caches", o.drop_caches,
               "Sync and drop the host's page cache before every read (root only, where "
               "/proc/sys/vm/drop_caches is writable; refused otherwise)");
  cmd.add_flag("--quiet", o.quiet, "No progress lines and no summary on stdout");
  add_s3_options(cmd, o.s3);
  cmd.add_option("--s3-part-size", o.part_size,
                 "With --dir s3://...: every shard is put by a multipart upload in parts of this "
                 "size (5 MiB to 5 GiB, a multiple of --request-size; --queue-depth parts in "
                 "flight per rank) and read back by a range GET per part");
  cmd.add_option("--rules", o.rules, report::kRulesHelp);
  cmd.add_option("--accelerator", o.accelerator,
                 "The simulated accelerator the run stands for (b200, mi355; h100, a100 whatif "
                 "only): MLPerf Storage v3.0 checks their memory holds the checkpoint");
  // Hidden: sweep's check of a point before any point runs (sweep --dry-run included).
  cmd.add_option("--check-only", o.check_ranks,
                 "Check the options as for RANKS ranks, then end (exit 0 or 2); runs nothing")
      ->group("");
}

} // namespace

void setup_checkpoint(CLI::App& app, cli_context& ctx) {
  auto o = std::make_shared<pipeline::checkpoint_job_options>();
  auto* sub = app.add_subcommand(
      "checkpoint", "Write a workload's checkpoint from every rank, read it back verified, and "
                    "write a JSON report");
  sub->option_defaults()->always_capture_default()->multi_option_policy(
      CLI::MultiOptionPolicy::TakeLast);
  add_checkpoint_options(*sub, *o);
  add_io_options(*sub, *o);
  sub->callback([o, sub, &ctx] {
    const nlohmann::json given = given_options(*sub);
    for (auto it = given.begin(); it != given.end(); ++it)
      o->req.given.insert("--" + it.key());
    o->effective = effective_config(*sub);
    o->command_line = report::command_line_json(ctx.argc, ctx.argv);
    ctx.exit_code = pipeline::run_checkpoint_job(*o);
  });
}

} // namespace dlsize::cli
