#include "pipeline/training_live_run.hpp"

#include <algorithm>
#include <system_error>

#include <fmt/format.h>

#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/units.hpp"

namespace dlsize::pipeline {

training_run::live_run::live_run(state& s)
    : m(s), opt(s.opt), smp(s.smp), local(s.local), first(s.first),
      preset(s.opt.accelerator.preset), board(local, opt.prefetch, preset.batch_size),
      source(s.layout, smp, board, first, local, opt.io.readers), feed(s.accels, smp, first),
      consumer(smp, board, feed, first, local, opt.io.readers,
               static_cast<std::uint64_t>(opt.preprocess_s * 1e9), opt.io.request_size),
      tele(s.mount, gpus), memory_start(telemetry::memory_now()), live(local), link(open_link()),
      total_steps(smp.total_steps()), records(local, step_accumulator(opt.epochs)),
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
  lo.activity = [this] { return activity(); };
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

std::string training_run::live_run::activity() {
  const cluster::job_counters c = counters();
  std::string s = fmt::format("step {} of {}, {} samples, {} read", c.steps, total_steps, c.samples,
                              units::format_bytes_decimal(static_cast<double>(c.bytes)));
  const std::string oldest = m.eng->stuck_read(0);
  return oldest.empty() ? s + ", no read in flight" : s + "; " + oldest;
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
  const std::uint64_t k = m.ckpt->next_number();
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
    if (opt.step_sync() || smp.ends_epoch(t) || ckpt) {
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

} // namespace dlsize::pipeline
