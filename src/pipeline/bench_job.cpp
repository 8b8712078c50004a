#include "pipeline/bench_job.hpp"

#include <cstdio>
#include <memory>

#include "cluster/agreement.hpp"
#include "cluster/communicator.hpp"
#include "cluster/job_end.hpp"
#include "core/error.hpp"
#include "core/input_watch.hpp"
#include "dataset/datagen_job.hpp"
#include "dataset/index_file.hpp"
#include "pipeline/bench_config.hpp"
#include "pipeline/bench_output.hpp"
#include "pipeline/bench_setup.hpp"
#include "pipeline/cache_emulation.hpp"
#include "pipeline/storage_bench.hpp"
#include "pipeline/training_run.hpp"
#include "report/rules_edition.hpp"
#include "s3/s3_error.hpp"

namespace dlsize::pipeline {
namespace {

// What a run is given besides its setup.
struct bench_run {
  const bench_job_options& o;
  const bench_setup& s;
  std::string dataset_dir;
  bench_output& out;
  cache_emulation* emulation;
};

// The ranks that write no report leave the host's cgroup as soon as their run ends, so that
// rank 0 (which ends its emulation when it writes the report) finds it empty. A child that
// cannot be removed is not this rank's run failing: it is said and left.
void leave_cache_emulation(cache_emulation& emulation) {
  try {
    emulation.stop();
  } catch (const run_error& e) {
    std::fprintf(stderr, "dlsize: warning: %s\n", e.what());
  }
}

// The options storage_bench_options and training_options share, as the job resolved them.
template <class Options>
void set_shared(Options& opt, const bench_run& b, const nlohmann::json& config) {
  opt.dataset = b.dataset_dir;
  opt.index = b.s.index;
  opt.s3 = b.s.s3;
  opt.io = b.s.io;
  opt.client_ram = b.s.client_ram;
  opt.shards = b.s.shards;
  opt.epochs = b.o.epochs;
  opt.seed = b.o.seed;
  opt.progress = !b.o.quiet;
  opt.time_limit_s = b.s.timing.time_limit_s;
  opt.stall_timeout_s = b.s.timing.stall_timeout_s;
  opt.sample_interval_s = b.s.timing.sample_interval_s;
  opt.config = config;
  opt.status = b.out.partial_writer(b.s.timing.status_interval_s);
}

int run_storage(const bench_run& b, const nlohmann::json& config) {
  storage_bench_options opt;
  set_shared(opt, b, config);
  opt.workload = b.s.profile.name;
  opt.verify = b.o.verify;
  auto res = run_storage_bench(opt, b.o.command_line);
  return b.out.finish(res.report, res.failed, res.abandoned, b.emulation);
}

training_options training_options_of(const bench_run& b, const nlohmann::json& config) {
  training_options opt;
  set_shared(opt, b, config);
  opt.workload = b.s.profile;
  opt.workload.au_threshold = b.s.au_threshold;
  opt.accelerator = b.s.spec;
  opt.accelerators = b.s.accelerators;
  opt.prefetch = b.o.prefetch;
  opt.sync_steps = b.o.sync_steps;
  opt.allreduce = b.s.allreduce;
  opt.layout = b.s.layout.layout;
  opt.declared_layout = b.s.layout.declared;
  opt.preprocess_s = b.s.preprocess_s;
  opt.checkpoint = b.s.checkpoint;
  opt.precision = b.o.precision;
  opt.nic_rates = b.s.nic_rates;
  return opt;
}

// Every rank builds its part of the run, the ranks agree they run the same, then run; the job
// ends the same way on every rank (cluster::end_job), rank 1 writing the report of a lost rank 0.
int run_training(const bench_run& b, const nlohmann::json& config, cluster::communicator& comm) {
  const training_options opt = training_options_of(b, config);
  std::unique_ptr<training_run> run;
  const auto fingerprints = cluster::agree(comm, [&] {
    run = std::make_unique<training_run>(opt, comm);
    return run->fingerprint();
  });
  cluster::require_same(comm, fingerprints, "run (options and dataset)");
  run->join_ranks();
  auto res = run->run(b.o.command_line);
  if (b.emulation && comm.rank() != 0)
    leave_cache_emulation(*b.emulation);
  return cluster::end_job(comm, {res.broken, res.root_lost, res.reason}, [&](bool broken) {
    if (!b.out.reserved() && !res.report.is_null()) // rank 1 standing in for a lost rank 0
      b.out.reserve_stand_in(b.s.profile.name);
    if (!b.out.reserved() && !res.report.is_null())
      return 1;
    return b.out.finish(res.report, broken || res.failed, res.abandoned, b.emulation);
  });
}

// The run once the options hold: the dataset generated on first use, the file systems' record,
// the cache emulation (before the readers' rings and buffers exist, so that all they use is
// charged to the child), then the storage-only or training run.
int run_checked(const bench_job_options& o, const bench_setup& s, bench_output& out,
                const nlohmann::json& config, cluster::communicator& comm) {
  if (!s.s3)
    dataset::generate_on_first_use(
        {o.dataset, o.generate, o.seed, !o.quiet, s.timing.stall_timeout_s}, s.profile, comm);
  const std::string dataset_dir =
      o.dataset.empty() ? dataset::index_dir(o.index).string() : o.dataset;
  if (!s.s3)
    out.record_fs_separation(dataset_dir);
  std::unique_ptr<cache_emulation> emulation;
  if (s.client_ram)
    emulation = std::make_unique<cache_emulation>(s.client_ram, o.dataset, comm);
  const bench_run b{o, s, dataset_dir, out, emulation.get()};
  if (s.spec.kind == config::accelerator_kind::none)
    return run_storage(b, config);
  return run_training(b, config, comm);
}

} // namespace

int run_bench_job(const bench_job_options& o) {
  (void)report::parse_rules_edition(o.rules, "--rules"); // refused before anything runs
  cluster::communicator& comm = cluster::world();
  const auto ranks = o.check_ranks ? o.check_ranks : static_cast<std::uint64_t>(comm.size());
  bench_setup s;
  bench_output out(o);
  // Everything that can be wrong with the options, checked on every rank before any work; then
  // every rank must have been given the same command and options.
  const auto given = cluster::agree(comm, [&] {
    const config::bench_request req = bench_request_of(o);
    const config::bench_timing timing = config::check_bench_request(req, ranks);
    comm.set_timeout_s(timing.rank_timeout_s);
    comm.set_finalize_timeout_s(timing.rank_timeout_s);
    s = resolve_bench_setup(o, req, timing, ranks, static_cast<std::uint64_t>(comm.where().nodes));
    // Last: nothing is reserved for options that are refused.
    if (comm.rank() == 0 && !o.check_ranks)
      out.reserve(s.profile.name);
    return cluster::command_given("bench", o.effective);
  });
  cluster::require_same(comm, given, "command and options");
  if (o.check_ranks)
    return 0;
  const nlohmann::json config =
      replayable_config(o.effective, s.spec.kind, s.accelerators, ranks, s.au_threshold);
  out.set_config(config);
  try {
    return run_checked(o, s, out, config, comm);
  } catch (const core::input_stopped& e) {
    if (!out.reserved())
      throw;
    return out.stopped_before_run(e.what());
  } catch (const s3::request_error& e) {
    // A bucket's request that failed before the run (its manifest): the report says so.
    if (!out.reserved())
      throw;
    return out.stopped_before_run(e.what());
  }
}

} // namespace dlsize::pipeline
