#include "config/bench_rules.hpp"

#include <utility>

#include <fmt/format.h>

#include "config/label.hpp"
#include "core/defaults.hpp"
#include "core/error.hpp"
#include "core/units.hpp"

namespace dlsize::config {
namespace {

void check_required(const bench_request& r) {
  if (r.workload.empty())
    throw usage_error("--workload: required (a profile name such as resnet50, or a JSON file), "
                      "on the command line or in --config");
  if (r.dataset.empty() && r.index.empty())
    throw usage_error("--dataset: required (a folder made by dlsize datagen, or --index of one "
                      "indexed by dlsize index), on the command line or in --config");
}

bench_timing check_durations(const bench_request& r) {
  bench_timing t;
  t.rank_timeout_s = units::parse_duration(r.rank_timeout, "--rank-timeout");
  if (t.rank_timeout_s < 1)
    throw usage_error("--rank-timeout: must be at least 1s");
  t.sample_interval_s = units::parse_duration(r.sample_interval, "--sample-interval");
  if (t.sample_interval_s < 0.05)
    throw usage_error("--sample-interval: must be at least 50ms");
  t.status_interval_s = units::parse_duration(r.status_interval, "--status-interval");
  if (t.status_interval_s < 1)
    throw usage_error("--status-interval: must be at least 1s");
  t.time_limit_s = time_limit_of(r.time_limit);
  t.stall_timeout_s = stall_timeout_of(r.stall_timeout);
  return t;
}

void check_storage_only(const bench_request& r, std::uint64_t ranks) {
  for (const char* opt : {"--accelerators", "--accelerators-per-rank", "--prefetch", "--sync-steps",
                          "--preprocess", "--au-threshold", "--precision", "--checkpoint-every",
                          "--checkpoint-dir", "--checkpoint-scale", "--mttf"})
    if (r.has(opt))
      throw usage_error(fmt::format("{}: needs an accelerator (--accelerator emulated:TYPE); "
                                    "with --accelerator none only storage is read",
                                    opt));
  if (ranks > 1)
    throw usage_error(
        "--accelerator none: storage-only runs are one process (use --readers for more "
        "threads). "
        "valid for a job of several ranks that only reads: --accelerator emulated:TYPE "
        "--compute-time 0 (accelerators that consume batches as fast as storage delivers "
        "them)");
}

} // namespace

double time_limit_of(const std::string& text) {
  if (text.empty())
    return 0;
  const double s = units::parse_duration(text, "--time-limit");
  if (s <= 0)
    throw usage_error(fmt::format("--time-limit: '{}' would stop the run before it starts. "
                                  "valid: a duration above 0 (60s), or no --time-limit",
                                  text));
  return s;
}

double stall_timeout_of(const std::string& text) {
  const double s = units::parse_duration(text, "--stall-timeout");
  if (s != 0 && s < 1)
    throw usage_error(fmt::format("--stall-timeout: '{}' is too short. valid: 1s or more, or "
                                  "0 (never)",
                                  text));
  return s;
}

void check_run_source(const std::string& replay, const std::string& config) {
  if (!replay.empty() && !config.empty())
    throw usage_error("--replay and --config: give one of them (a report's config block is "
                      "a run config)");
}

bench_timing check_bench_request(const bench_request& r, std::uint64_t ranks) {
  check_required(r);
  if (r.epochs < 1)
    throw usage_error("--epochs: must be at least 1");
  if (r.has("--label"))
    check_label(r.label, "--label");
  if (r.replay_ranks && r.replay_ranks != ranks)
    throw usage_error(
        fmt::format("--replay: the report's run had {} ranks, this job has {}; a replay runs as "
                    "the run did. valid: launch {} ranks",
                    r.replay_ranks, ranks, r.replay_ranks));
  bench_timing t = check_durations(r);
  t.shards = core::parse_enum<shard_read>(r.shard_read, "--shard-read");
  t.keep_open = core::parse_enum<open_mode>(r.open, "--open") == open_mode::keep;
  return t;
}

std::uint64_t check_accelerator_rules(const bench_request& r, accelerator_kind kind,
                                      std::uint64_t ranks) {
  if (kind == accelerator_kind::none) {
    check_storage_only(r, ranks);
    return 0;
  }
  if (r.verify)
    throw usage_error("--verify: checks storage-only runs (--accelerator none); training runs "
                      "count bytes and read errors");
  if (kind != accelerator_kind::cuda && r.has("--precision"))
    throw usage_error(
        "--precision: applies to --accelerator cuda (a real GPU's arithmetic); an emulated "
        "accelerator's compute time is given");
  return job_accelerators(r, ranks);
}

std::uint64_t job_accelerators(const bench_request& r, std::uint64_t ranks) {
  if (r.accelerators && r.accelerators_per_rank &&
      r.accelerators != r.accelerators_per_rank * ranks)
    throw usage_error(fmt::format(
        "--accelerators {} and --accelerators-per-rank {} disagree over {} ranks. valid: "
        "one of them, or --accelerators = --accelerators-per-rank × ranks ({})",
        r.accelerators, r.accelerators_per_rank, ranks, r.accelerators_per_rank * ranks));
  if (r.accelerators_per_rank)
    return r.accelerators_per_rank * ranks;
  if (!r.accelerators)
    return ranks;
  if (r.accelerators % ranks)
    throw usage_error(fmt::format(
        "--accelerators: {} cannot be shared equally by {} ranks. valid: a multiple of {}, or "
        "--accelerators-per-rank",
        r.accelerators, ranks, ranks));
  return r.accelerators;
}

bench_checkpoint check_checkpoint_options(const bench_request& r, const workload_profile& w) {
  bench_checkpoint c;
  if (r.checkpoint_every.empty()) {
    for (const char* opt : {"--checkpoint-dir", "--checkpoint-scale", "--mttf"})
      if (r.has(opt))
        throw usage_error(fmt::format("{}: needs --checkpoint-every STEPS|DURATION|optimal "
                                      "(500steps, 30min)",
                                      opt));
    return c;
  }
  if (r.checkpoint_every == "optimal") {
    c.optimal = true;
    c.mttf_s = r.mttf.empty() ? core::defaults::mttf_s : units::parse_duration(r.mttf, "--mttf");
    c.mttf_source = r.mttf.empty() ? core::defaults::mttf_source : "--mttf " + r.mttf;
    if (!(c.mttf_s > 0))
      throw usage_error(fmt::format("--mttf: '{}' is not above 0. valid: the mean time to "
                                    "failure of one accelerator, such as 50000h",
                                    r.mttf));
  } else if (r.has("--mttf")) {
    throw usage_error("--mttf: picks the checkpoint interval from the goodput model. valid: with "
                      "--checkpoint-every optimal");
  } else {
    c.every = parse_checkpoint_interval(r.checkpoint_every, "--checkpoint-every");
  }
  (void)require_checkpoint(w);
  if (r.checkpoint_dir.empty())
    throw usage_error("--checkpoint-dir: required with --checkpoint-every (a new or empty folder "
                      "on the storage the checkpoints go to)");
  if (!(r.checkpoint_scale > 0 && r.checkpoint_scale <= 1))
    throw usage_error(fmt::format("--checkpoint-scale: {} is outside (0, 1]. valid: a fraction "
                                  "such as 0.01 of every rank's share",
                                  r.checkpoint_scale));
  c.dir = r.checkpoint_dir;
  c.scale = r.checkpoint_scale;
  return c;
}

void check_dataset_place(const bench_request& r, bool in_s3) {
  if (!in_s3) {
    if (r.engine == "s3")
      throw usage_error(fmt::format("--engine s3: reads a dataset in a bucket (--dataset "
                                    "s3://BUCKET/PREFIX); '{}' is a folder. valid: io_uring, psync",
                                    r.dataset));
    return;
  }
  if (r.has("--engine") && r.engine != "s3")
    throw usage_error(fmt::format("--engine {}: an s3:// dataset is read by the s3 engine. "
                                  "valid: --engine s3, or no --engine",
                                  r.engine));
  const std::pair<const char*, const char*> refused[] = {
      {"cache", "objects have no page cache to bypass or fill"},
      {"client-ram", "the cache emulation caches pages of files"},
      {"open", "objects are not opened"},
      {"generate", "generate an S3 dataset with dlsize datagen --dataset s3://..."}};
  for (const auto& [name, why] : refused)
    if (r.has(fmt::format("--{}", name)))
      throw usage_error(fmt::format("--{}: means nothing for an s3:// dataset ({}). valid: leave "
                                    "--{} out",
                                    name, why, name));
}

} // namespace dlsize::config
