#include "pipeline/training_run.hpp"

#include <algorithm>
#include <atomic>
#include <barrier>
#include <memory>
#include <mutex>
#include <optional>
#include <system_error>
#include <thread>

#include <fmt/format.h>

#include "accel/accelerator.hpp"
#include "accel/device_select.hpp"
#include "accel/make_accelerator.hpp"
#include "cluster/agreement.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/rng.hpp"
#include "core/sysinfo.hpp"
#include "core/units.hpp"
#include "dataset/layout.hpp"
#include "pipeline/batch_board.hpp"
#include "pipeline/gpu_feed.hpp"
#include "pipeline/preprocess.hpp"
#include "pipeline/rank_result.hpp"
#include "pipeline/run_monitor.hpp"
#include "pipeline/run_report.hpp"
#include "pipeline/sampler.hpp"
#include "pipeline/step_metrics.hpp"
#include "pipeline/training_report.hpp"
#include "pipeline/training_source.hpp"
#include "report/report_io.hpp"
#include "report/run_status.hpp"
#include "telemetry/host_provenance.hpp"
#include "telemetry/nvml.hpp"
#include "telemetry/sampler.hpp"

namespace dlsize::pipeline {
namespace {

using dataset::dataset_layout;

struct alignas(64) reader_tally {
  std::atomic<std::uint64_t> flowed{0}; // bytes of every request as it completes (live progress)
  histogram sample_latency;
  std::uint64_t failed = 0;
  std::string first_error;
  std::unique_ptr<preprocessor> pre;
};

// Counts each sample's bytes, runs the preprocessing on them, and reports whole samples to
// the board. Samples belong to this rank's accelerators first .. first + count − 1.
class training_consumer : public io::job_consumer {
public:
  training_consumer(const sampler& s, batch_board& board, gpu_feed& feed, std::uint64_t first,
                    std::uint64_t count, unsigned readers, std::uint64_t preprocess_ns,
                    std::size_t chunk)
      : m_sampler(s), m_board(board), m_feed(feed), m_first(first), m_tally(readers),
        m_digest(std::make_unique<std::atomic<std::uint64_t>[]>(count)) {
    for (auto& t : m_tally)
      t.pre = std::make_unique<preprocessor>(preprocess_ns, chunk);
  }
  void on_start(unsigned, const io::read_job&) override {}
  void on_data(unsigned reader, const io::read_job& job, std::uint64_t off, const std::byte* data,
               std::size_t bytes) override {
    m_tally[reader].flowed.fetch_add(bytes, std::memory_order_relaxed);
    if (m_feed.active())
      m_feed.on_data(job, off, data, bytes);
    auto& pre = *m_tally[reader].pre;
    if (!pre.enabled())
      return;
    // Only the sample's own bytes, not the alignment padding of direct reads.
    const std::uint64_t lo = std::max(off, job.offset);
    const std::uint64_t hi = std::min(off + bytes, job.offset + job.length);
    if (hi > lo)
      pre.feed(data + (lo - off), static_cast<std::size_t>(hi - lo));
  }
  void on_done(unsigned reader, const io::read_job& job, std::uint64_t bytes,
               std::uint64_t latency_ns, io::job_outcome outcome,
               const std::string& error) override {
    auto& t = m_tally[reader];
    const bool failed = outcome == io::job_outcome::failed;
    if (failed && t.failed++ == 0)
      t.first_error = error;
    const sample_slot sl = m_sampler.slot(job.tag);
    const std::uint64_t a = sl.accelerator - m_first;
    if (outcome == io::job_outcome::done) {
      t.sample_latency.record(latency_ns);
      t.pre->finish_sample();
      // What this accelerator read at this step, independent of the order of completions.
      m_digest[a].fetch_add(splitmix64(splitmix64(sl.step) ^ (std::uint64_t{job.file} << 40) ^
                                       job.offset ^ (job.length << 20)),
                            std::memory_order_relaxed);
    }
    m_board.sample_done(a, sl.step, bytes, failed, now_ns());
  }
  std::vector<reader_tally>& tallies() { return m_tally; }
  // Bytes the reads returned so far, counted as each request completes.
  std::uint64_t bytes() const {
    std::uint64_t b = 0;
    for (auto& t : m_tally)
      b += t.flowed.load(std::memory_order_relaxed);
    return b;
  }
  std::uint64_t digest(std::uint64_t a) const { return m_digest[a].load(); }

private:
  const sampler& m_sampler;
  batch_board& m_board;
  gpu_feed& m_feed;
  std::uint64_t m_first;
  std::vector<reader_tally> m_tally;
  std::unique_ptr<std::atomic<std::uint64_t>[]> m_digest;
};

// What each accelerator thread shares with the monitor while it runs.
struct alignas(64) accel_live {
  std::atomic<std::uint64_t> steps{0};
  std::atomic<std::uint64_t> samples{0};
  std::atomic<std::uint64_t> compute_ns{0};
};

// A real GPU's row in the report: the device, its steps, and NVML's figures for it over the run
// (found by PCI bus id, whatever CUDA_VISIBLE_DEVICES numbers it).
// Null for an emulated accelerator.
nlohmann::json gpu_details(const accel::accelerator& acc, const telemetry::nvml& nvml,
                           const nlohmann::json& timeseries) {
  nlohmann::json d = acc.run_details();
  if (d.is_null())
    return d;
  d["nvml"] = nullptr;
  const int i = nvml.index_of_pci_bus_id(acc.pci_bus_id());
  const nlohmann::json all = telemetry::nvml::summarize(timeseries);
  if (i >= 0 && static_cast<std::size_t>(i) < all.size())
    d["nvml"] = all[static_cast<std::size_t>(i)];
  return d;
}

dataset_layout open_for(const training_options& opt) {
  dataset_layout layout = dataset::open_any_dataset(opt.dataset, opt.index, opt.workload.name);
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

} // namespace

struct training_run::state {
  state(const training_options& o, cluster::communicator& c)
      : opt(o), comm(c), layout(open_for(o)),
        smp(layout.records(), o.accelerators, o.accelerator.preset.batch_size, o.epochs, o.seed) {}
  training_options opt;
  cluster::communicator& comm;
  dataset_layout layout;
  sampler smp;
  std::uint64_t first = 0, local = 0; // this rank's accelerators
  io::file_set files;
  std::string fallback;
  std::unique_ptr<io::engine> eng;
  sysinfo::mount_info mount;
  nlohmann::json provenance; // telemetry::host_provenance, taken before any read
  std::vector<std::unique_ptr<accel::accelerator>> accels; // this rank's
  std::unique_ptr<training_checkpointer> ckpt;             // with --checkpoint-every
};

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
  m->files = check_files(m->layout);
  m->eng = io::make_engine(opt.io, m->files, m->fallback);
  m->mount = sysinfo::mount_of(opt.dataset.string());
  // Before any read: a stat of a mount whose server hangs a read can hang as well.
  m->provenance = telemetry::host_provenance(opt.dataset);
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
  return {{"dataset_id", fmt::format("{:016x}", m->layout.dataset_id())},
          {"dataset_bytes", m->layout.total_bytes()},
          {"dataset_files", m->layout.files()},
          {"config", m->opt.config}};
}

// One run() of a rank: what its accelerator threads, its readers, the run link and the monitor
// share while the run goes on, and the pieces of the run that use it. Members are declared in
// the order they must be built (the link's callbacks use the board and the counters; the
// barrier's completion uses the link).
struct training_run::live_run {
  explicit live_run(state& s);
  live_run(const live_run&) = delete;
  live_run& operator=(const live_run&) = delete;

  // The barrier's completion: one sync of the job per phase.
  struct phase_done {
    live_run* run;
    void operator()() noexcept { run->on_phase(); }
  };

  state& m;
  const training_options& opt;
  const sampler& smp;
  const std::uint64_t local, first;
  const config::accelerator_preset& preset;
  batch_board board;
  training_source source;
  gpu_feed feed;
  training_consumer consumer;
  const telemetry::nvml gpus;
  telemetry::sampler tele;
  const nlohmann::json memory_start;
  std::atomic<bool> stop_io{false}, halt{false};
  std::mutex reason_m;
  std::string fail_reason; // this rank's own
  stop_event stop;
  std::vector<accel_live> live;
  const std::unique_ptr<cluster::run_link> link;
  const std::uint64_t total_steps, spe;
  // Steps are folded in as they end: a run's memory does not grow with its steps.
  std::vector<step_accumulator> records;
  // Syncs: a step ends, for every accelerator of the job, when the slowest one's compute ends
  // (its deadline, not when threads happen to wake), as an allreduce or a barrier would end.
  std::uint64_t t0 = 0; // the common start; set before any accelerator thread starts
  std::atomic<std::uint64_t> phase_max_end{0};
  std::uint64_t phase_end = 0;
  // A checkpoint after this phase: the step it follows (0: none), then the job's pause for it.
  std::atomic<std::uint64_t> ckpt_step{0};
  std::uint64_t ckpt_ns = 0;
  std::barrier<phase_done> step_barrier;
  const std::uint64_t comm_ns;

  std::unique_ptr<cluster::run_link> open_link();
  void halt_here();
  // This rank failed: it stops, and the job with it.
  void fail_here(const std::string& why);
  cluster::job_counters counters();
  void on_phase() noexcept;
  void checkpoint(std::uint64_t step);
  void accel_loop(std::uint64_t a);
  std::string progress_line(double el);
  run_monitor make_monitor(bool root);
  std::vector<std::thread> start_threads(run_monitor& monitor);
  io::engine_result read_all();
  void add_accelerators(rank_result& r, const nlohmann::json& timeseries);
  void add_readers(rank_result& r, const io::engine_result& ran);
  rank_result result(const io::engine_result& ran, run_totals totals);
};

training_run::live_run::live_run(state& s)
    : m(s), opt(s.opt), smp(s.smp), local(s.local), first(s.first),
      preset(s.opt.accelerator.preset), board(local, opt.prefetch, preset.batch_size),
      source(s.layout, smp, board, first, local), feed(s.accels, smp, first),
      consumer(smp, board, feed, first, local, opt.io.readers,
               static_cast<std::uint64_t>(opt.preprocess_s * 1e9), opt.io.request_size),
      tele(s.mount, gpus), memory_start(telemetry::memory_json()), live(local), link(open_link()),
      total_steps(smp.total_steps()), spe(smp.steps_per_epoch()),
      records(local, step_accumulator(opt.epochs)),
      step_barrier(static_cast<std::ptrdiff_t>(local), phase_done{this}),
      comm_ns(static_cast<std::uint64_t>(
          opt.allreduce.active() ? opt.allreduce.exposed_s(opt.layout, preset.compute_time_s) * 1e9
                                 : 0.0)) {
  if (feed.active())
    board.on_complete([this](std::uint64_t a, std::uint64_t t, std::uint64_t failed) {
      feed.on_complete(a, t, failed);
    });
}

std::unique_ptr<cluster::run_link> training_run::live_run::open_link() {
  cluster::run_link_options lo;
  lo.on_halt = [this](const std::string&, bool) { halt_here(); };
  lo.counters = [this] { return counters(); };
  lo.stall_timeout_s = opt.stall_timeout_s;
  return m.comm.open_run_link(lo);
}

void training_run::live_run::halt_here() {
  halt.store(true, std::memory_order_release);
  stop_io.store(true);
  source.close();
  board.close();
}

void training_run::live_run::fail_here(const std::string& why) {
  {
    std::lock_guard lk(reason_m);
    if (fail_reason.empty())
      fail_reason = why;
  }
  halt_here();
  link->fail(why);
}

cluster::job_counters training_run::live_run::counters() {
  cluster::job_counters c{consumer.bytes(), 0, 0,
                          live.empty() ? 0 : live[0].steps.load(std::memory_order_relaxed)};
  for (auto& l : live) {
    c.samples += l.samples.load(std::memory_order_relaxed);
    c.compute_ns += l.compute_ns.load(std::memory_order_relaxed);
  }
  return c;
}

void training_run::live_run::on_phase() noexcept {
  const std::uint64_t mine = phase_max_end.exchange(0, std::memory_order_relaxed);
  const cluster::sync_result r = link->sync(mine > t0 ? mine - t0 : 0);
  phase_end = t0 + r.end_ns;
  ckpt_ns = 0;
  const std::uint64_t step = ckpt_step.exchange(0, std::memory_order_relaxed);
  if (step && !halt.load(std::memory_order_acquire))
    checkpoint(step);
}

// Synchronous checkpointing: every rank writes its share while its accelerators wait in the
// barrier, then the job syncs again, so that every rank resumes when the slowest writer is done.
void training_run::live_run::checkpoint(std::uint64_t step) {
  const std::uint64_t k = step / m.ckpt->every_steps();
  try {
    if (!m.ckpt->write(k))
      return; // a signal: the monitor stops the run and says why
  } catch (const std::exception& e) {
    fail_here(fmt::format("checkpoint {} after step {}: {}", k, step, e.what()));
    return;
  }
  const std::uint64_t wrote = std::max(now_ns(), phase_end);
  const cluster::sync_result r = link->sync(wrote - t0);
  const std::uint64_t resumed = std::max(phase_end, t0 + r.end_ns);
  try {
    m.ckpt->seal(k);
  } catch (const std::exception& e) {
    fail_here(fmt::format("checkpoint {}: {}", k, e.what()));
  }
  ckpt_ns = resumed - phase_end;
  m.ckpt->add_pause(static_cast<double>(ckpt_ns) * 1e-9);
  phase_end = resumed;
}

void training_run::live_run::accel_loop(std::uint64_t a) {
  auto& recs = records[a];
  const auto& accels = m.accels;
  std::uint64_t prev_end = t0;
  for (std::uint64_t t = 0; t < total_steps && !halt.load(std::memory_order_acquire); ++t) {
    const batch_board::batch b = board.wait(a, t);
    if (!b.ready || halt.load(std::memory_order_acquire))
      break;
    if (b.failed) {
      fail_here(fmt::format("accelerator {} step {}: {} samples could not be read", first + a, t,
                            b.failed));
      break;
    }
    // A batch that was ready in time starts at the previous deadline, not at wake-up.
    const std::uint64_t start = std::max(prev_end, b.ready_ns);
    board.take(a, t);
    source.notify();
    std::uint64_t end = 0;
    try {
      end = accels[a]->step(start);
    } catch (const std::exception& e) {
      fail_here(fmt::format("accelerator {} step {}: {}", first + a, t, e.what()));
      break;
    }
    const std::uint64_t compute = accels[a]->compute_ns(start, end);
    std::uint64_t after = end, held = 0, paused = 0;
    const bool ckpt = m.ckpt && m.ckpt->due(t);
    if (opt.step_sync() || (t + 1) % spe == 0 || ckpt) {
      if (ckpt)
        ckpt_step.store(t + 1, std::memory_order_relaxed);
      std::uint64_t seen = phase_max_end.load(std::memory_order_relaxed);
      while (seen < end &&
             !phase_max_end.compare_exchange_weak(seen, end, std::memory_order_relaxed)) {
      }
      step_barrier.arrive_and_wait();
      // After a halt the others may have left without arriving: no sync happened.
      after = halt.load(std::memory_order_acquire) ? end : std::max(end, phase_end);
      paused = ckpt ? std::min(ckpt_ns, after - end) : 0; // not a wait for the others
    }
    // The allreduce ends together for all (the barrier), then takes the same modelled time.
    if (comm_ns && !halt.load(std::memory_order_acquire)) {
      held = comm_ns;
      sleep_until_ns(after + held);
    }
    const std::uint64_t sync = after - end - paused;
    after += held;
    const sample_slot sl = smp.slot(smp.first_job(t, first + a));
    // Times count from the common start, so that ranks' epochs line up on rank 0.
    recs.add({t, sl.epoch, start - prev_end, compute, sync, after - std::min(after, t0),
              preset.batch_size, b.bytes, held});
    live[a].compute_ns.fetch_add(compute, std::memory_order_relaxed);
    live[a].samples.fetch_add(preset.batch_size, std::memory_order_relaxed);
    live[a].steps.fetch_add(1, std::memory_order_relaxed);
    prev_end = after;
  }
  step_barrier.arrive_and_drop();
}

std::string training_run::live_run::progress_line(double el) {
  const cluster::job_counters c = link->totals(); // the job's, on rank 0
  const double au = el > 0 ? static_cast<double>(c.compute_ns) * 1e-9 /
                                 (el * static_cast<double>(opt.accelerators))
                           : 0;
  const double frac = static_cast<double>(c.steps) / static_cast<double>(total_steps);
  return fmt::format(
      "train: epoch {}/{} step {}/{}, {:.0f} samples/s, {}, AU {:.1f} %, ETA {:.0f} s",
      std::min(opt.epochs, c.steps / spe + 1), opt.epochs, c.steps % spe, spe,
      el > 0 ? static_cast<double>(c.samples) / el : 0,
      units::format_rate_both(el > 0 ? static_cast<double>(c.bytes) / el : 0), 100 * au,
      frac > 0 ? el * (1 - frac) / frac : 0);
}

run_monitor training_run::live_run::make_monitor(bool root) {
  return run_monitor(
      tele,
      {opt.sample_interval_s, root ? opt.time_limit_s : 0, opt.progress && root, local,
       opt.stall_timeout_s, [this](std::uint64_t age) { return m.eng->stuck_read(age); }, nullptr,
       0.5, root ? opt.status : status_hook{}},
      [this] {
        const cluster::job_counters c = counters();
        return run_counters{c.bytes, c.samples, c.compute_ns};
      },
      [this](double el, const run_counters&) { return progress_line(el); },
      [this](const stop_event& why) {
        {
          std::lock_guard lk(reason_m);
          if (stop.cause == stop_cause::none)
            stop = why;
        }
        link->stop(report::stop_reason_text(why));
      });
}

std::vector<std::thread> training_run::live_run::start_threads(run_monitor& monitor) {
  std::vector<std::thread> accel_threads;
  try {
    for (std::uint64_t a = 0; a < local; ++a)
      accel_threads.emplace_back([this, a] { accel_loop(a); });
  } catch (const std::system_error& e) {
    // Joinable threads must not be destroyed (std::terminate): the started ones are stopped and
    // joined, and the run fails with the limit named.
    const std::size_t started = accel_threads.size();
    halt_here();
    for (std::size_t a = started; a < local; ++a)
      step_barrier.arrive_and_drop();
    for (auto& th : accel_threads)
      th.join();
    monitor.finish();
    throw run_error(fmt::format("could not start accelerator thread {} of {}: {}. The limit on "
                                "processes and threads (ulimit -u, RLIMIT_NPROC) or memory ran "
                                "out; valid: fewer --accelerators-per-rank, or a higher limit",
                                started + 1, local, e.what()));
  }
  return accel_threads;
}

io::engine_result training_run::live_run::read_all() {
  io::engine_result ran = m.eng->run(source, consumer, stop_io);
  // A reader's failure outranks the stop it caused in the accelerators.
  if (!ran.error.empty()) {
    {
      std::lock_guard lk(reason_m);
      stop = {};
      fail_reason = ran.error;
    }
    fail_here(ran.error);
  }
  return ran;
}

void training_run::live_run::add_accelerators(rank_result& r, const nlohmann::json& timeseries) {
  r.first_accelerator = first;
  r.steps_min = UINT64_MAX;
  for (std::uint64_t a = 0; a < local; ++a) {
    r.devices.push_back(m.accels[a]->device());
    r.details.push_back(gpu_details(*m.accels[a], gpus, timeseries));
    r.accelerators.push_back(records[a].figures());
    r.sample_digests.push_back(consumer.digest(a));
    r.steps_run += records[a].steps();
    r.steps_min = std::min<std::uint64_t>(r.steps_min, records[a].steps());
    r.samples += records[a].steps() * preset.batch_size;
  }
  if (r.steps_min == UINT64_MAX)
    r.steps_min = 0;
  r.epochs.assign(epoch_rows(opt.epochs), epoch_partial{});
  for (const auto& acc : records)
    for (std::size_t e = 0; e < acc.epochs().size(); ++e)
      r.epochs[e].merge(acc.epochs()[e]);
}

void training_run::live_run::add_readers(rank_result& r, const io::engine_result& ran) {
  r.io = merge_stats(ran.readers);
  r.engine = m.eng->name();
  r.uncached_method = m.eng->uncached_method();
  for (auto& t : consumer.tallies()) {
    r.sample_latency.merge(t.sample_latency);
    r.failed_samples += t.failed;
    if (r.first_error.empty())
      r.first_error = t.first_error;
    r.pre_samples += t.pre->samples();
    r.pre_bytes += t.pre->bytes();
    r.pre_cpu_ns += t.pre->cpu_ns();
    r.pre_passes += t.pre->extra_passes();
    r.pre_digest ^= t.pre->digest();
  }
}

rank_result training_run::live_run::result(const io::engine_result& ran, run_totals totals) {
  rank_result r;
  const auto& w = m.comm.where();
  r.rank = w.rank;
  r.host = w.host;
  r.node = w.node;
  r.local_rank = w.local_rank;
  add_accelerators(r, totals.timeseries);
  add_readers(r, ran);
  r.wall_s = totals.wall_s;
  r.cpu = totals.cpu;
  r.storage_counter = tele.storage().available();
  r.storage_source = tele.storage().source();
  r.storage_bytes = totals.storage_bytes;
  r.memory_start = memory_start;
  r.memory_end = telemetry::memory_json();
  r.timeseries = std::move(totals.timeseries);
  r.host_facts = report::system_json(gpus.devices(), gpus.status(), m.provenance)["hosts"][0];
  add_run_warnings(r.warnings, opt.io, *m.eng, m.layout, m.fallback);
  for (const auto& a : ran.abandoned)
    r.warnings.push_back(fmt::format("rank {}: {}", w.rank, a));
  {
    std::lock_guard lk(reason_m);
    r.fail_reason = fail_reason;
    r.stop = stop;
  }
  return r;
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
  if (root) {
    std::vector<rank_result> ranks;
    for (const auto& p : outcome.payloads)
      if (!p.empty())
        ranks.push_back(rank_result::from_json(nlohmann::json::parse(p)));
    res =
        build_training_report({m->opt, m->layout, m->mount, m->smp, m->comm, command_line, outcome,
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
