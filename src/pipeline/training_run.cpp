#include "pipeline/training_run.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <barrier>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "accel/emulated.hpp"
#include "core/clock.hpp"
#include "core/error.hpp"
#include "core/progress.hpp"
#include "core/rng.hpp"
#include "core/stop.hpp"
#include "core/sysinfo.hpp"
#include "core/units.hpp"
#include "dataset/layout.hpp"
#include "pipeline/batch_board.hpp"
#include "pipeline/preprocess.hpp"
#include "pipeline/run_monitor.hpp"
#include "pipeline/run_report.hpp"
#include "pipeline/sampler.hpp"
#include "pipeline/step_metrics.hpp"
#include "pipeline/training_source.hpp"
#include "report/report_io.hpp"
#include "telemetry/cpu_usage.hpp"
#include "telemetry/nvml.hpp"
#include "telemetry/sampler.hpp"

namespace dlsize::pipeline {
namespace {

using dataset::dataset_layout;

struct alignas(64) reader_tally {
  std::atomic<std::uint64_t> bytes{0};
  histogram sample_latency;
  std::uint64_t failed = 0;
  std::string first_error;
  std::unique_ptr<preprocessor> pre;
};

// Counts each sample's bytes, runs the preprocessing on them, and reports whole samples to
// the board.
class training_consumer : public io::job_consumer {
 public:
  training_consumer(const sampler& s, batch_board& board, unsigned readers, std::uint64_t preprocess_ns,
                    std::size_t chunk)
      : m_sampler(s), m_board(board), m_tally(readers) {
    for (auto& t : m_tally) t.pre = std::make_unique<preprocessor>(preprocess_ns, chunk);
  }
  void on_start(unsigned, const io::read_job&) override {}
  void on_data(unsigned reader, const io::read_job& job, std::uint64_t off, const std::byte* data,
               std::size_t bytes) override {
    auto& pre = *m_tally[reader].pre;
    if (!pre.enabled()) return;
    // Only the sample's own bytes, not the alignment padding of direct reads.
    const std::uint64_t lo = std::max(off, job.offset);
    const std::uint64_t hi = std::min(off + bytes, job.offset + job.length);
    if (hi > lo) pre.feed(data + (lo - off), static_cast<std::size_t>(hi - lo));
  }
  void on_done(unsigned reader, const io::read_job& job, std::uint64_t bytes, std::uint64_t latency_ns,
               const std::string& error) override {
    auto& t = m_tally[reader];
    t.bytes.fetch_add(bytes, std::memory_order_relaxed);
    const bool failed = !error.empty() && error != "interrupted";
    if (failed && t.failed++ == 0) t.first_error = error;
    if (error.empty()) {
      t.sample_latency.record(latency_ns);
      t.pre->finish_sample();
    }
    const sample_slot sl = m_sampler.slot(job.tag);
    m_board.sample_done(sl.accelerator, sl.step, bytes, failed, now_ns());
  }
  std::vector<reader_tally>& tallies() { return m_tally; }
  std::uint64_t bytes() const {
    std::uint64_t b = 0;
    for (auto& t : m_tally) b += t.bytes.load(std::memory_order_relaxed);
    return b;
  }

 private:
  const sampler& m_sampler;
  batch_board& m_board;
  std::vector<reader_tally> m_tally;
};

// What each accelerator thread shares with the monitor while it runs.
struct alignas(64) accel_live {
  std::atomic<std::uint64_t> steps{0};
  std::atomic<std::uint64_t> samples{0};
  std::atomic<std::uint64_t> compute_ns{0};
};

}  // namespace

training_result run_training(const training_options& opt, const nlohmann::json& command_line) {
  dataset_layout layout = dataset::open_dataset(opt.dataset);
  const auto& params = layout.params();
  if (params.workload != opt.workload.name)
    throw usage_error(fmt::format("--dataset: '{}' was generated for workload '{}', not '{}'. "
                                  "valid: --workload {} or a dataset generated for {} (dlsize datagen "
                                  "--workload {})",
                                  opt.dataset.string(), params.workload, opt.workload.name,
                                  params.workload, opt.workload.name, opt.workload.name));
  if (opt.prefetch < 1) throw usage_error("--prefetch: must be at least 1 batch");
  if (opt.accelerators > 4096) throw usage_error("--accelerators: at most 4096 per process");
  const auto& preset = opt.accelerator.preset;
  const sampler smp(layout.records(), opt.accelerators, preset.batch_size, opt.epochs, opt.seed);
  const io::file_set files = check_files(layout);

  std::string fallback;
  auto eng = io::make_engine(opt.io, files, fallback);
  batch_board board(opt.accelerators, opt.prefetch, preset.batch_size);
  training_source source(layout, smp, board);
  const auto preprocess_ns = static_cast<std::uint64_t>(opt.preprocess_s * 1e9);
  training_consumer consumer(smp, board, opt.io.readers, preprocess_ns, opt.io.request_size);

  std::vector<std::unique_ptr<accel::accelerator>> accels;
  for (std::uint64_t a = 0; a < opt.accelerators; ++a)
    accels.push_back(std::make_unique<accel::emulated_accelerator>(
        opt.accelerator.type,
        accel::compute_model(preset.compute_time_s, preset.compute_time_stdev_s, splitmix64(opt.seed ^ (a + 1) * 0x9e3779b97f4a7c15ull)),
        preset.source));

  const auto mount = sysinfo::mount_of(opt.dataset.string());
  const telemetry::nvml gpus;
  telemetry::sampler tele(mount, gpus);
  const nlohmann::json memory_start = telemetry::memory_json();

  std::atomic<bool> stop_io{false}, halt{false};
  std::mutex reason_m;
  std::string stop_reason, fail_reason;
  auto halt_run = [&](const std::string& why, bool failure) {
    {
      std::lock_guard lk(reason_m);
      if (stop_reason.empty() && fail_reason.empty()) (failure ? fail_reason : stop_reason) = why;
    }
    halt.store(true);
    stop_io.store(true);
    source.close();
    board.close();
  };

  const std::uint64_t total_steps = smp.total_steps();
  std::vector<std::vector<step_record>> records(opt.accelerators);
  std::vector<accel_live> live(opt.accelerators);
  // --sync-steps: a step ends, for everyone, when the slowest accelerator's compute ends (its
  // deadline, not when threads happen to wake), as an allreduce would end.
  std::atomic<std::uint64_t> phase_max_end{0};
  std::uint64_t phase_end = 0;
  auto on_phase = [&]() noexcept {
    phase_end = phase_max_end.exchange(0, std::memory_order_relaxed);
  };
  std::barrier step_barrier(static_cast<std::ptrdiff_t>(opt.accelerators), on_phase);
  std::uint64_t t0 = 0;  // set by monitor.start(), before any accelerator thread starts

  auto accel_loop = [&](std::uint64_t a) {
    auto& recs = records[a];
    recs.reserve(total_steps);
    std::uint64_t prev_end = t0;
    for (std::uint64_t t = 0; t < total_steps && !halt.load(std::memory_order_acquire); ++t) {
      const batch_board::batch b = board.wait(a, t);
      if (!b.ready || halt.load(std::memory_order_acquire)) break;
      if (b.failed) {
        halt_run(fmt::format("accelerator {} step {}: {} samples could not be read", a, t, b.failed), true);
        break;
      }
      // A batch that was ready in time starts at the previous deadline, not at wake-up.
      const std::uint64_t start = std::max(prev_end, b.ready_ns);
      board.take(a, t);
      source.notify();
      const std::uint64_t end = accels[a]->step(start);
      std::uint64_t after = end;
      if (opt.sync_steps) {
        std::uint64_t seen = phase_max_end.load(std::memory_order_relaxed);
        while (seen < end && !phase_max_end.compare_exchange_weak(seen, end, std::memory_order_relaxed)) {
        }
        step_barrier.arrive_and_wait();
        // After a halt the others may have left without arriving: no allreduce happened.
        after = halt.load(std::memory_order_acquire) ? end : std::max(end, phase_end);
      }
      const sample_slot sl = smp.slot(smp.first_job(t, a));
      recs.push_back({t, sl.epoch, start - prev_end, end - start, after - end, after, preset.batch_size, b.bytes});
      live[a].compute_ns.fetch_add(end - start, std::memory_order_relaxed);
      live[a].samples.fetch_add(preset.batch_size, std::memory_order_relaxed);
      live[a].steps.fetch_add(1, std::memory_order_relaxed);
      prev_end = after;
    }
    if (opt.sync_steps) step_barrier.arrive_and_drop();
  };

  run_monitor monitor(
      tele, {opt.sample_interval_s, opt.time_limit_s, opt.progress, opt.accelerators},
      [&] {
        run_counters c{consumer.bytes(), 0, 0};
        for (auto& l : live) {
          c.samples += l.samples.load(std::memory_order_relaxed);
          c.compute_ns += l.compute_ns.load(std::memory_order_relaxed);
        }
        return c;
      },
      [&](double el, const run_counters& c) {
        const std::uint64_t steps0 = live[0].steps.load(std::memory_order_relaxed);
        const double au = el > 0 ? static_cast<double>(c.compute_ns) * 1e-9 / (el * static_cast<double>(opt.accelerators)) : 0;
        const double frac = static_cast<double>(steps0) / static_cast<double>(total_steps);
        return fmt::format("train: epoch {}/{} step {}/{}, {:.0f} samples/s, {}, AU {:.1f} %, ETA {:.0f} s",
                           std::min(opt.epochs, steps0 / smp.steps_per_epoch() + 1), opt.epochs,
                           steps0 % smp.steps_per_epoch(), smp.steps_per_epoch(),
                           el > 0 ? static_cast<double>(c.samples) / el : 0,
                           units::format_rate_both(el > 0 ? static_cast<double>(c.bytes) / el : 0), 100 * au,
                           frac > 0 ? el * (1 - frac) / frac : 0);
      },
      [&](const std::string& why) { halt_run(why, false); });
  t0 = monitor.start();

  std::vector<std::thread> accel_threads;
  for (std::uint64_t a = 0; a < opt.accelerators; ++a) accel_threads.emplace_back(accel_loop, a);
  const io::engine_result ran = eng->run(source, consumer, stop_io);
  // A reader's failure outranks the stop it caused in the accelerators.
  if (!ran.error.empty()) {
    {
      std::lock_guard lk(reason_m);
      stop_reason.clear();
      fail_reason = ran.error;
    }
    halt_run(ran.error, true);
  }
  const std::vector<io::reader_stats>& stats = ran.readers;
  for (auto& th : accel_threads) th.join();
  run_totals totals = monitor.finish();
  const double wall = totals.wall_s;
  const auto& cpu = totals.cpu;

  // Figures.
  const io::reader_stats all = merge_stats(stats);
  histogram sample_latency;
  std::uint64_t failed_samples = 0;
  std::string first_error;
  std::uint64_t pre_samples = 0, pre_bytes = 0, pre_cpu = 0, pre_passes = 0, pre_digest = 0;
  for (auto& t : consumer.tallies()) {
    sample_latency.merge(t.sample_latency);
    failed_samples += t.failed;
    if (first_error.empty()) first_error = t.first_error;
    pre_samples += t.pre->samples();
    pre_bytes += t.pre->bytes();
    pre_cpu += t.pre->cpu_ns();
    pre_passes += t.pre->extra_passes();
    pre_digest ^= t.pre->digest();
  }
  const double cpu_s = cpu.process_user_s + cpu.process_system_s;
  const double gib = static_cast<double>(all.bytes) / (1024.0 * 1024.0 * 1024.0);  // for the text

  std::vector<accelerator_figures> figs;
  std::uint64_t consumed_samples = 0, steps_run = 0, steps_min = UINT64_MAX;
  for (const auto& r : records) {
    figs.push_back(figures_of(r));
    steps_run += r.size();
    steps_min = std::min<std::uint64_t>(steps_min, r.size());
    consumed_samples += r.size() * preset.batch_size;
  }
  // A stop that came after the last step (the monitor saw a signal or the limit late) stopped
  // nothing.
  if (steps_min == total_steps && fail_reason.empty()) stop_reason.clear();
  const nlohmann::json epochs_sec = epoch_figures(records, opt.epochs, t0);
  const overall_figures overall = overall_of(figs);
  const std::string host = sysinfo::hostname();
  nlohmann::json accel_json = nlohmann::json::array();
  for (std::uint64_t a = 0; a < opt.accelerators; ++a) {
    const auto& f = figs[a];
    nlohmann::json j = {{"id", a},
                        {"rank", 0},
                        {"host", host},
                        {"device", accels[a]->device()},
                        {"steps", f.steps},
                        {"measured_steps", f.measured_steps},
                        {"samples", f.total_samples},
                        {"read_bytes", f.total_bytes},
                        {"measured_samples", f.samples},
                        {"measured_read_bytes", f.bytes},
                        {"samples_per_s", f.samples_per_s},
                        {"utilization", f.measured ? nlohmann::json(f.utilization) : nlohmann::json(nullptr)},
                        {"compute_s", f.compute_s},
                        {"window_s", f.window_s},
                        {"data_wait_s", f.data_wait_s},
                        {"sync_wait_s", f.sync_wait_s},
                        {"first_step_wait_s", f.first_step_wait_s},
                        {"data_wait", percentiles_json(f.data_wait)}};
    accel_json.push_back(std::move(j));
  }

  const double mean_sample = static_cast<double>(layout.total_bytes()) / static_cast<double>(layout.records());
  const double demand_per_accel = preset.compute_time_s > 0
                                      ? static_cast<double>(preset.batch_size) * mean_sample / preset.compute_time_s
                                      : 0.0;
  const double threshold = opt.workload.au_threshold;
  const bool measured = overall.measured_accelerators > 0;
  const bool au_pass = measured && overall.utilization >= threshold;

  nlohmann::json warnings = nlohmann::json::array();
  add_run_warnings(warnings, opt.io, *eng, layout, fallback);
  if (smp.dropped_per_epoch())
    warnings.push_back(fmt::format("{} samples per epoch do not fill a step of {} accelerators × batch {} and are "
                                   "not read (drop_last)",
                                   smp.dropped_per_epoch(), opt.accelerators, preset.batch_size));
  if (smp.steps_per_epoch() < 500)
    warnings.push_back(fmt::format("{} steps per epoch; MLPerf Storage asks for at least 500 (a larger dataset)",
                                   smp.steps_per_epoch()));
  if (!measured)
    warnings.push_back("fewer than two steps per accelerator ran: AU is not measured (the first step is excluded)");
  if (stop_reason == "time limit reached") warnings.push_back("stopped at --time-limit before all epochs ran");
  if (opt.sync_steps && opt.accelerators == 1) warnings.push_back("--sync-steps with one accelerator has no one to wait for");

  std::string status = "complete", reason;
  if (!fail_reason.empty()) {
    status = "incomplete";
    reason = fail_reason;
    if (failed_samples) reason += fmt::format("; first read error: {}", first_error);
  } else if (!stop_reason.empty() && stop_reason != "time limit reached") {
    status = "incomplete";
    reason = stop_reason;
  } else if (failed_samples || all.errors) {
    status = "incomplete";
    reason = fmt::format("{} samples could not be read; first: {}", failed_samples,
                         first_error.empty() ? all.first_error : first_error);
  }

  nlohmann::json storage_sec = storage_json(tele.storage().available(), tele.storage().source(), totals.storage_bytes,
                                            all.bytes, wall, memory_start, mount.fs_type, warnings);
  const double read_rate = wall > 0 ? static_cast<double>(all.bytes) / wall : 0.0;
  nlohmann::json summary = {
      {"samples_per_s", overall.samples_per_s},
      {"samples_per_s_per_accelerator", opt.accelerators ? overall.samples_per_s / static_cast<double>(opt.accelerators) : 0.0},
      {"read_bytes_per_s", read_rate},
      {"read_bytes", all.bytes},
      {"accelerator_utilization", measured ? nlohmann::json(overall.utilization) : nlohmann::json(nullptr)},
      {"accelerator_utilization_min", measured ? nlohmann::json(overall.min_utilization) : nlohmann::json(nullptr)},
      {"accelerator_utilization_epoch_mean", epoch_mean_au(epochs_sec)},
      {"au_threshold", threshold},
      {"au_pass", au_pass},
      {"demand_bytes_per_s_per_accelerator", demand_per_accel},
      {"demand_bytes_per_s", demand_per_accel * static_cast<double>(opt.accelerators)},
      {"wall_s", wall},
      {"epochs", opt.epochs},
      {"epochs_completed", steps_min == UINT64_MAX ? 0 : steps_min / smp.steps_per_epoch()},
      {"steps_per_epoch", smp.steps_per_epoch()},
      {"steps", steps_min == UINT64_MAX ? 0 : steps_min},
      {"steps_total", steps_run},
      {"samples", consumed_samples},
      {"data_wait", percentiles_json(overall.data_wait)},
      {"data_wait_s", overall.data_wait_s},
      {"sync_wait_s", overall.sync_wait_s},
  };
  add_cpu_cost(summary, cpu, all.bytes, consumed_samples);
  nlohmann::json workload_sec = {
      {"name", opt.workload.name},
      {"origin", opt.workload.origin},
      {"layout", config::to_string(params.layout)},
      {"format", params.format},
      {"au_threshold", threshold},
      {"accelerator",
       {{"type", opt.accelerator.type},
        {"origin", opt.accelerator.origin},
        {"batch_size", preset.batch_size},
        {"compute_time_s", preset.compute_time_s},
        {"compute_time_stdev_s", preset.compute_time_stdev_s},
        {"source", preset.source}}},
      {"mean_sample_bytes", mean_sample},
      {"model", opt.workload.model.is_null() ? nlohmann::json::object() : opt.workload.model},
  };
  nlohmann::json report = report::report_header("bench", command_line);
  report.update({
      {"config", opt.config},
      {"workload", workload_sec},
      {"dataset", dataset_json(opt.dataset, layout, mount)},
      {"system", report::system_json(gpus.devices(), gpus.status())},
      {"topology",
       {{"ranks", 1}, {"nodes", 1}, {"accelerators", opt.accelerators}, {"accelerators_per_node", opt.accelerators},
        {"accelerator_kind", "emulated"}, {"sync_steps", opt.sync_steps}, {"prefetch", opt.prefetch}}},
      {"summary", summary},
      {"accelerators", accel_json},
      {"epochs", epochs_sec},
      {"io", io_json(opt.io, *eng, all, sample_latency, params.layout == config::file_layout::shards ? "record" : "file")},
      {"preprocessing",
       {{"enabled", preprocess_ns > 0},
        {"cost_per_sample_s", opt.preprocess_s},
        {"samples", pre_samples},
        {"bytes", pre_bytes},
        {"cpu_s", static_cast<double>(pre_cpu) * 1e-9},
        {"extra_passes", pre_passes},
        {"digest", fmt::format("{:016x}", pre_digest)}}},
      {"storage", storage_sec},
      {"timeseries", std::move(totals.timeseries)},
      {"warnings", warnings},
      {"status", status},
  });
  if (!reason.empty()) report["reason"] = reason;

  training_result res;
  res.failed = status != "complete";
  res.summary_text = fmt::format(
      "{} on {} × {} (batch {}, {:.4g} s per step), {} epochs × {} steps\n"
      "  AU          {}\n"
      "  samples/s   {:.1f} total, {:.1f} per accelerator\n"
      "  read        {} in {:.2f} s: {}; demand at AU 100 %: {}\n"
      "  data wait   p50 {:.3f} ms  p90 {:.3f} ms  p99 {:.3f} ms  max {:.3f} ms (per step)\n"
      "  latency     p50 {:.3f} ms  p99 {:.3f} ms (per request, {} {} cache)\n"
      "  cpu         process {:.1f} % of one core, host {:.1f} %; {:.3f} CPU s per GiB, {:.4f} per 1,000 samples\n"
      "  status      {}{}\n",
      opt.workload.name, opt.accelerators, accels.empty() ? "" : accels[0]->device(), preset.batch_size,
      preset.compute_time_s, opt.epochs, smp.steps_per_epoch(),
      measured ? fmt::format("{:.1f} % (threshold {:.0f} %: {}), lowest accelerator {:.1f} %", 100 * overall.utilization,
                             100 * threshold, au_pass ? "PASS" : "FAIL", 100 * overall.min_utilization)
               : std::string("not measured (fewer than two steps)"),
      overall.samples_per_s, opt.accelerators ? overall.samples_per_s / static_cast<double>(opt.accelerators) : 0.0,
      units::format_bytes_binary(static_cast<double>(all.bytes)), wall, units::format_rate_both(read_rate),
      units::format_rate_both(demand_per_accel * static_cast<double>(opt.accelerators)),
      overall.data_wait.quantile(0.5) * 1e-6, overall.data_wait.quantile(0.9) * 1e-6,
      overall.data_wait.quantile(0.99) * 1e-6, static_cast<double>(overall.data_wait.max()) * 1e-6,
      all.read_latency.quantile(0.5) * 1e-6, all.read_latency.quantile(0.99) * 1e-6, eng->name(),
      io::to_string(opt.io.cache), cpu.process_utilization * 100, cpu.host_utilization * 100,
      gib > 0 ? cpu_s / gib : 0.0, consumed_samples ? cpu_s * 1000.0 / static_cast<double>(consumed_samples) : 0.0,
      status, reason.empty() ? "" : ": " + reason);
  res.report = std::move(report);
  return res;
}

}  // namespace dlsize::pipeline
