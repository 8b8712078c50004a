#include "pipeline/bench_setup.hpp"

#include <algorithm>
#include <filesystem>

#include <fmt/format.h>

#include "accel/cuda_accelerator.hpp"
#include "accel/cuda_backend.hpp"
#include "core/input_watch.hpp"
#include "core/thread_budget.hpp"
#include "core/units.hpp"
#include "dataset/index_file.hpp"
#include "pipeline/cache_emulation.hpp"

namespace dlsize::pipeline {
namespace {

io::engine_options engine_options_of(const bench_job_options& o, bool keep_open, bool in_s3) {
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

// The workload, the accelerator it runs on, the index's use and the allreduce model.
void resolve_workload(const bench_job_options& o, bench_setup& s) {
  s.index.index = o.index;
  s.index.verify = o.verify;
  s.index.change = dataset::parse_on_change(o.on_change);
  s.profile = config::load_workload(o.workload);
  config::require_dataset(s.profile, "bench");
  config::preset_overrides over;
  if (o.batch_size)
    over.batch_size = o.batch_size;
  if (!o.compute_time.empty())
    over.compute_time_s = units::parse_duration(o.compute_time, "--compute-time");
  if (!o.compute_time_stdev.empty())
    over.compute_time_stdev_s = units::parse_duration(o.compute_time_stdev, "--compute-time-stdev");
  s.spec = config::resolve_accelerator(o.accelerator, s.profile, over,
                                       [] { accel::cuda_backend::get().require_device(0); });
  if (!o.index.empty())
    dataset::check_index_use({!o.generate.empty(), !o.client_ram.empty(),
                              core::find_enum<shard_read>(o.shard_read) == shard_read::stream &&
                                  s.spec.kind == config::accelerator_kind::none});
  config::require_allreduce_for_inputs(o.allreduce, o.given);
  s.allreduce = config::resolve_allreduce(o.allreduce, s.profile, s.spec);
}

// Where the dataset lives (a folder, or a bucket: an index of a bucket names it when --dataset
// is not given), the engine that reads it, and the cache emulation's RAM.
void resolve_place(const bench_job_options& o, const config::bench_request& req,
                   const config::bench_timing& timing, bench_setup& s) {
  const std::string named =
      o.dataset.empty() && !o.index.empty() ? dataset::index_dir(o.index).string() : o.dataset;
  s3::settings settings = o.s3;
  if (const auto where = s3::dataset_location(named, "--dataset", settings))
    s.s3 = s3_dataset{*where, settings};
  config::check_dataset_place(req, s.s3.has_value());
  s.io = engine_options_of(o, timing.keep_open, s.s3.has_value());
  if (!o.client_ram.empty()) {
    s.client_ram = units::parse_size(o.client_ram, "--client-ram");
    check_cache_emulation(s.client_ram, s.io);
  }
  s.shards = timing.shards;
}

// What only training runs take: the declared layout, preprocessing, the AU threshold, the
// checkpoints (to a folder or a bucket) and the precision.
void resolve_training(const bench_job_options& o, const config::bench_request& req,
                      std::uint64_t ranks, std::uint64_t nodes, bench_setup& s) {
  if (s.allreduce.active())
    s.layout = config::resolve_layout(o.allreduce, s.accelerators, ranks, nodes);
  s.preprocess_s = o.preprocess.empty() ? 0 : units::parse_duration(o.preprocess, "--preprocess");
  s.au_threshold = o.au_threshold.empty() ? s.profile.au_threshold
                                          : units::parse_fraction(o.au_threshold, "--au-threshold");
  const config::bench_checkpoint c = config::check_checkpoint_options(req, s.profile);
  s.checkpoint = {c.every, c.dir, c.scale, std::nullopt, std::nullopt};
  if (c.optimal)
    s.checkpoint.optimal = optimal_interval{c.mttf_s, c.mttf_source, s.accelerators};
  s3::settings ck_settings = o.s3;
  if (const auto where = s3::dataset_location(c.dir.string(), "--checkpoint-dir", ck_settings)) {
    // Parts of 64 MiB (S3's 10,000 parts hold 640 GiB), a whole number of blocks.
    const std::uint64_t block = s.io.request_size;
    s.checkpoint.s3 =
        s3_checkpoint{{*where, ck_settings}, ((64u << 20) + block - 1) / block * block};
  }
  if (s.spec.kind == config::accelerator_kind::cuda)
    accel::parse_precision(o.precision, "--precision");
}

} // namespace

config::bench_request bench_request_of(const bench_job_options& o) {
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
  r.engine = o.engine;
  r.label = o.label;
  r.checkpoint_every = o.checkpoint_every;
  r.checkpoint_dir = o.checkpoint_dir;
  r.checkpoint_scale = o.checkpoint_scale;
  r.mttf = o.mttf;
  r.epochs = o.epochs;
  r.replay_ranks = o.replay_ranks;
  r.accelerators = o.accelerators;
  r.accelerators_per_rank = o.accelerators_per_rank;
  r.verify = o.verify;
  r.given = o.given;
  return r;
}

bench_setup resolve_bench_setup(const bench_job_options& o, const config::bench_request& req,
                                const config::bench_timing& timing, std::uint64_t ranks,
                                std::uint64_t nodes) {
  bench_setup s;
  s.timing = timing;
  resolve_workload(o, s);
  core::watch_inputs({timing.stall_timeout_s, timing.time_limit_s});
  resolve_place(o, req, timing, s);
  s.nic_rates = config::parse_nic_rates(o.nic_bandwidth, "--nic-bandwidth");
  s.accelerators = config::check_accelerator_rules(req, s.spec.kind, ranks);
  if (s.spec.kind != config::accelerator_kind::none)
    resolve_training(o, req, ranks, nodes, s);
  if (!s.s3 && !s.checkpoint.s3)
    s3::refuse_s3_options(o.given, o.dataset.empty() ? fmt::format("--index '{}'", o.index)
                                                     : fmt::format("--dataset '{}'", o.dataset));
  // Readers, this rank's accelerators, and the monitor, telemetry and link threads.
  const std::uint64_t per_rank = s.accelerators / ranks;
  check_thread_budget(
      s.io.readers + per_rank + 3,
      fmt::format("--readers {} and {} accelerator(s) per rank", s.io.readers, per_rank));
  return s;
}

} // namespace dlsize::pipeline
