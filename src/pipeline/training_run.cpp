#include "pipeline/training_run.hpp"

#include <fmt/format.h>

#include "accel/device_select.hpp"
#include "accel/make_accelerator.hpp"
#include "cluster/agreement.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/rng.hpp"
#include "pipeline/run_report.hpp"
#include "pipeline/training_live_run.hpp"
#include "pipeline/training_report.hpp"
#include "telemetry/host_provenance.hpp"

namespace dlsize::pipeline {
namespace {

using dataset::dataset_layout;

dataset_layout open_for(const training_options& opt) {
  dataset_layout layout = open_run_dataset(opt.dataset, opt.index, opt.workload.name, opt.s3);
  const auto& params = layout.params();
  if (params.workload != opt.workload.name)
    throw usage_error(
        fmt::format("--dataset: '{}' was generated for workload '{}', not '{}'. "
                    "valid: --workload {} or a dataset generated for {} (dlsize datagen "
                    "--workload {})",
                    opt.dataset.string(), params.workload, opt.workload.name, params.workload,
                    opt.workload.name, opt.workload.name));
  return layout;
}

// The sampler of --shard-read: streamed shards need a dataset of shards to stream.
sampler sampler_for(const training_options& o, const dataset_layout& layout) {
  const std::uint64_t batch = o.accelerator.preset.batch_size;
  if (o.shards == shard_read::records)
    return {layout.records(), o.accelerators, batch, o.epochs, o.seed};
  if (layout.params().layout != config::file_layout::shards)
    throw usage_error(fmt::format(
        "--shard-read stream: '{}' holds one sample per file; there is no shard to stream "
        "(each sample is its own file, read whole either way). valid: --shard-read records, or "
        "a dataset of shards (dlsize datagen --layout shards, or an index of TFRecord, tar or "
        "Parquet files)",
        o.dataset.string()));
  std::vector<std::uint64_t> first(layout.files() + 1);
  for (std::uint64_t f = 0; f <= layout.files(); ++f)
    first[f] = f < layout.files() ? layout.first_record(f) : layout.records();
  return {std::move(first), o.accelerators, batch, o.epochs, o.seed};
}

// What rank 1 reports when rank 0 stopped answering: a failed halt that came from rank 0, with
// every rank but rank 1 missing (their results went to rank 0).
cluster::run_outcome stand_in_outcome(const cluster::run_outcome& seen,
                                      const cluster::communicator& comm) {
  cluster::run_outcome o = seen;
  o.halted = o.failed = o.broken = true;
  o.origin = 0;
  // The report names the origin before its reason: "rank 0 (host h): has not answered ...".
  const std::string name = comm.rank_name(0) + " ";
  const std::string said =
      seen.reason.rfind(name, 0) == 0 ? seen.reason.substr(name.size()) : seen.reason;
  o.reason = fmt::format("{}; this report is {}'s, written in its stead: the other ranks' results "
                         "went to rank 0 and are lost with it",
                         said, comm.rank_name(1));
  o.missing.clear();
  for (int k = 0; k < comm.size(); ++k)
    if (k != 1)
      o.missing.push_back(k);
  return o;
}

} // namespace

training_run::state::state(const training_options& o, cluster::communicator& c)
    : opt(o), comm(c), layout(open_for(o)), smp(sampler_for(o, layout)) {}

training_run::training_run(const training_options& opt, cluster::communicator& comm) {
  if (opt.prefetch < 1)
    throw usage_error("--prefetch: must be at least 1 batch");
  const auto ranks = static_cast<std::uint64_t>(comm.size());
  if (opt.accelerators == 0 || opt.accelerators % ranks)
    throw usage_error(fmt::format(
        "--accelerators: {} cannot be shared equally by {} ranks. valid: a multiple of {}, "
        "or --accelerators-per-rank",
        opt.accelerators, ranks, ranks));
  if (opt.accelerators / ranks > 4096)
    throw usage_error("--accelerators-per-rank: at most 4096 per process");
  const bool cuda = opt.accelerator.kind == config::accelerator_kind::cuda;
  if (cuda && opt.accelerators != ranks)
    throw usage_error(
        fmt::format("--accelerators: {} over {} ranks; --accelerator cuda drives one GPU per rank "
                    "(its local rank's). valid: one rank per GPU (mpiexec -np {}) and "
                    "--accelerators-per-rank 1",
                    opt.accelerators, ranks, opt.accelerators));
  m = std::make_unique<state>(opt, comm);
  m->local = opt.accelerators / ranks;
  m->first = static_cast<std::uint64_t>(comm.rank()) * m->local;
  // Memory does not grow with steps or epochs: steps fold into running sums, and epoch rows
  // stop at kEpochRowsCap + 1 (pipeline/step_metrics).
  const double t0 = now_s();
  m->files = run_files(m->layout, opt.s3);
  m->stat_s = now_s() - t0;
  m->eng = make_run_engine(opt.io, m->files, opt.s3, m->fallback);
  m->mount = run_mount(opt.dataset, opt.s3);
  // Before any read: a stat of a mount whose server hangs a read can hang as well.
  m->provenance = run_provenance(opt.dataset, opt.s3);
  accel::accelerator_request req;
  req.spec = &opt.accelerator;
  req.network = opt.workload.network.get();
  req.precision = opt.precision;
  req.slots = static_cast<std::uint32_t>(opt.prefetch + 1); // see gpu_feed.hpp
  req.local_rank = comm.where().local_rank;
  for (std::uint64_t a = 0; a < m->local; ++a) {
    const std::uint64_t g = m->first + a; // the same seeds whichever rank drives it
    req.seed = splitmix64(opt.seed ^ (g + 1) * 0x9e3779b97f4a7c15ull);
    m->accels.push_back(accel::make_accelerator(req));
  }
  if (opt.checkpoint.active()) {
    const phase_io pio{opt.io.cache, opt.io.queue_depth, opt.io.request_size};
    // Every rank's blocks carry the same run id without a vote: the dataset's.
    m->ckpt = std::make_unique<training_checkpointer>(
        opt.checkpoint, opt.workload, static_cast<unsigned>(comm.rank()),
        static_cast<unsigned>(comm.size()), opt.accelerator.preset.compute_time_s, pio,
        m->layout.params().dataset_id() ^ 0xc4ec4b01u);
  }
}

void training_run::join_ranks() {
  if (m->accels.empty() || !m->accels[0]->joins_ranks() || m->comm.size() == 1)
    return;
  // NCCL across the ranks' GPUs, bootstrapped over MPI: rank 0's id to every rank, then every
  // rank joins (a collective of NCCL's own: every rank's trainer exists by now).
  std::string id;
  if (m->comm.rank() == 0) {
    const auto bytes = m->accels[0]->new_job_id();
    id.assign(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  }
  id = m->comm.broadcast(id);
  const std::vector<std::uint8_t> bytes(id.begin(), id.end());
  // NCCL refuses two ranks on one GPU, late and in its own words: every rank says first which
  // GPU it drives, and all refuse the same way.
  const auto gpus =
      cluster::agree(m->comm, [&] { return nlohmann::json(m->accels[0]->pci_bus_id()); });
  std::vector<std::string> pci;
  for (const auto& g : gpus)
    pci.push_back(g.get<std::string>());
  // Every rank finds the same pair from the same agreed list, so the job ends as one agreed
  // error: rank 0 says it and every rank exits 2 through MPI_Finalize. An abort here could
  // kill the launcher's forwarding before the message reached the terminal.
  if (const auto dup = accel::duplicate_gpu(m->comm.where().rank_hosts, pci))
    throw cluster::job_error(2,
                             fmt::format("--accelerator cuda: {}; each rank needs a GPU of its own "
                                         "(as many GPUs as ranks per host, or CUDA_VISIBLE_DEVICES "
                                         "per rank)",
                                         *dup));
  cluster::agree(m->comm, [&] {
    m->accels[0]->join(m->comm.rank(), m->comm.size(), bytes);
    return nlohmann::json(nullptr);
  });
}

training_run::~training_run() = default;

nlohmann::json training_run::fingerprint() const {
  return run_fingerprint_json(m->layout.dataset_id(), m->layout.total_bytes(), m->layout.files(),
                              m->opt.config);
}

training_result training_run::run(const nlohmann::json& command_line) {
  const bool root = m->comm.rank() == 0;
  live_run lr(*m);
  run_monitor monitor = lr.make_monitor(root);
  lr.t0 = lr.link->start();
  monitor.start(lr.t0);
  std::vector<std::thread> accel_threads = lr.start_threads(monitor);
  const io::engine_result ran = lr.read_all();
  for (auto& th : accel_threads)
    th.join();
  const rank_result r = lr.result(ran, monitor.finish());

  const std::uint64_t end_ns = now_ns();
  const cluster::run_outcome outcome = lr.link->finish(r.to_json().dump());
  const std::uint64_t gathered_ns = now_ns();
  training_result res;
  // Rank 0 writes the job's report. When rank 0 itself stopped answering, rank 1 stands in with
  // a report of its own results, every other rank named missing: a live rank's figures are not
  // lost with the rank that writes.
  const bool stand_in = !root && outcome.root_lost && m->comm.rank() == 1;
  if (root || stand_in) {
    std::vector<rank_result> ranks;
    cluster::run_outcome o = outcome;
    if (stand_in) {
      ranks.push_back(r);
      o = stand_in_outcome(outcome, m->comm);
    }
    for (const auto& p : outcome.payloads)
      if (!p.empty())
        ranks.push_back(rank_result::from_json(nlohmann::json::parse(p)));
    res = build_training_report({m->opt, m->layout, m->mount, m->smp, m->comm, command_line, o,
                                 process_start_ns(), lr.t0, end_ns, gathered_ns, m->ckpt.get()},
                                ranks);
  }
  res.abandoned = ran.abandoned;
  res.broken = outcome.broken;
  res.root_lost = outcome.root_lost;
  res.reason = outcome.reason;
  return res;
}

} // namespace dlsize::pipeline
