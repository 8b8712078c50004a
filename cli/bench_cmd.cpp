// dlsize bench: run a workload against a dataset and write a report.
#include <cstdio>

#include <fmt/format.h>

#include "commands.hpp"
#include "config/workload.hpp"
#include "core/atomic_file.hpp"
#include "core/error.hpp"
#include "core/units.hpp"
#include "pipeline/storage_bench.hpp"
#include "report/report_io.hpp"

namespace dlsize::cli {
namespace {

struct bench_cli {
  std::string workload;
  std::string dataset;
  std::string accelerator = "none";
  std::string out;
  std::string engine = "io_uring";
  std::string cache = "direct";
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
  bool verify = false;
  bool quiet = false;
};

int run_bench(const bench_cli& o, const cli_context& ctx) {
  if (o.accelerator != "none")
    throw usage_error(fmt::format("--accelerator: '{}' is not available in this build. valid: none "
                                  "(storage only)",
                                  o.accelerator));
  if (!o.out.empty()) check_new_output(o.out, "--out");
  pipeline::storage_bench_options opt;
  opt.workload = config::load_workload(o.workload).name;
  opt.dataset = o.dataset;
  opt.io.engine = o.engine;
  opt.io.cache = io::parse_cache_mode(o.cache);
  opt.io.queue_depth = o.queue_depth;
  const auto rs = units::parse_size(o.request_size, "--request-size");
  if (rs > (64u << 20) || rs < 4096 || rs % 4096)
    throw usage_error(fmt::format("--request-size: '{}' is not valid. valid: a multiple of 4 KiB from 4 KiB to 64 MiB", o.request_size));
  opt.io.request_size = static_cast<std::uint32_t>(rs);
  opt.io.readers = o.readers;
  opt.io.max_read_rate = o.max_read_rate.empty() ? 0 : units::parse_rate(o.max_read_rate, "--max-read-rate");
  if (o.open != "keep" && o.open != "per-sample")
    throw usage_error(fmt::format("--open: invalid value '{}'. valid: keep (open every file once, as fio does), per-sample (open, read, close each sample, as framework loaders do)", o.open));
  opt.io.keep_open = o.open == "keep";
  if (o.shard_read != "records" && o.shard_read != "stream")
    throw usage_error(fmt::format("--shard-read: invalid value '{}'. valid: records (random record reads by index), stream (each shard read sequentially)", o.shard_read));
  opt.shards = o.shard_read == "records" ? pipeline::shard_read::records : pipeline::shard_read::stream;
  opt.epochs = o.epochs;
  opt.seed = o.seed;
  opt.verify = o.verify;
  opt.progress = !o.quiet;
  opt.time_limit_s = o.time_limit.empty() ? 0 : units::parse_duration(o.time_limit, "--time-limit");
  opt.sample_interval_s = units::parse_duration(o.sample_interval, "--sample-interval");
  if (opt.sample_interval_s < 0.05) throw usage_error("--sample-interval: must be at least 50ms");
  auto res = pipeline::run_storage_bench(opt, report::command_line_json(ctx.argc, ctx.argv));
  if (!o.quiet) std::fputs(res.summary_text.c_str(), stdout);
  if (!o.out.empty()) {
    report::write_report(o.out, res.report);
    std::printf("report: %s\n", o.out.c_str());
  }
  if (res.report.contains("verify"))
    for (const auto& p : res.report["verify"]["problems"]) std::fprintf(stderr, "mismatch: %s\n", p.get<std::string>().c_str());
  if (res.failed) {
    std::fprintf(stderr, "dlsize: bench %s: %s\n", res.report["status"].get<std::string>().c_str(),
                 res.report.value("reason", "").c_str());
    return 1;
  }
  return 0;
}

}  // namespace

void setup_bench(CLI::App& app, cli_context& ctx) {
  auto o = std::make_shared<bench_cli>();
  auto* sub = app.add_subcommand("bench", "Run a workload against a dataset and write a JSON report");
  sub->add_option("--workload", o->workload, "Workload profile name or JSON file")->required();
  sub->add_option("--dataset", o->dataset, "Dataset folder made by dlsize datagen")->required();
  sub->add_option("--accelerator", o->accelerator, "none: storage only (reads as fast as the storage allows)")->capture_default_str();
  sub->add_option("--out", o->out, "Report file to write (must not exist)");
  sub->add_option("--engine", o->engine, "I/O engine: io_uring or psync (pread threads)")->capture_default_str();
  sub->add_option("--cache", o->cache, "direct (O_DIRECT), buffered, or uncached (RWF_DONTCACHE or fadvise)")->capture_default_str();
  sub->add_option("--queue-depth", o->queue_depth, "Requests in flight per reader (io_uring)")->capture_default_str();
  sub->add_option("--request-size", o->request_size, "Largest read request, a multiple of 4 KiB")->capture_default_str();
  sub->add_option("--readers", o->readers, "Reader threads, one io_uring ring each")->capture_default_str();
  sub->add_option("--epochs", o->epochs, "Passes over the dataset, each in a new random order")->capture_default_str();
  sub->add_option("--seed", o->seed, "Seed of the epoch orders (epoch e uses seed + e)")->capture_default_str();
  sub->add_option("--max-read-rate", o->max_read_rate, "Cap on read bandwidth over all readers, e.g. 300MB/s");
  sub->add_option("--open", o->open, "keep: open every file once (as fio); per-sample: open-read-close each sample (as loaders)")->capture_default_str();
  sub->add_option("--shard-read", o->shard_read, "Shard layouts: records (random record reads by index) or stream (shards read sequentially)")->capture_default_str();
  sub->add_option("--time-limit", o->time_limit, "Stop after this long (e.g. 60s), reporting what was read");
  sub->add_option("--sample-interval", o->sample_interval, "Telemetry sampling interval")->capture_default_str();
  sub->add_flag("--verify", o->verify, "Check every record's header and checksum");
  sub->add_flag("--quiet", o->quiet, "No progress line and no summary on stdout");
  sub->callback([o, &ctx] { ctx.exit_code = run_bench(*o, ctx); });
}

}  // namespace dlsize::cli
