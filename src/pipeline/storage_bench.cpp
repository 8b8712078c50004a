#include "pipeline/storage_bench.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <mutex>
#include <thread>

#include <fmt/format.h>

#include "core/clock.hpp"
#include "core/crc32c.hpp"
#include "core/error.hpp"
#include "core/histogram.hpp"
#include "core/progress.hpp"
#include "core/rng.hpp"
#include "core/stop.hpp"
#include "core/sysinfo.hpp"
#include "core/units.hpp"
#include "dataset/layout.hpp"
#include "dataset/record_verifier.hpp"
#include "pipeline/epoch_order.hpp"
#include "pipeline/run_monitor.hpp"
#include "pipeline/run_report.hpp"
#include "report/provenance.hpp"
#include "report/report_io.hpp"
#include "report/run_status.hpp"
#include "telemetry/cpu_usage.hpp"
#include "telemetry/host_provenance.hpp"
#include "telemetry/sampler.hpp"
#include "telemetry/storage_counters.hpp"

namespace dlsize::pipeline {
namespace {

using dataset::dataset_layout;

// What one read job covers: a whole file, or one record of a shard.
struct unit_plan {
  bool per_record = false; // units are records (else files)
  std::uint64_t units = 0;
  std::uint64_t samples_per_unit = 1;
};

class epoch_source : public io::job_source {
public:
  epoch_source(const dataset_layout& layout, const unit_plan& plan, std::uint64_t seed,
               std::uint64_t epochs)
      : m_layout(layout), m_plan(plan), m_seed(seed), m_total(plan.units * epochs) {}
  io::pull_result pull(unsigned, io::read_job& job) override {
    if (m_closed.load(std::memory_order_relaxed))
      return io::pull_result::end;
    const std::uint64_t k = m_cursor.fetch_add(1, std::memory_order_relaxed);
    if (k >= m_total)
      return io::pull_result::end;
    const epoch_order order(m_plan.units, m_seed, k / m_plan.units);
    job = unit_job(m_layout, m_plan.per_record, static_cast<std::uint32_t>(order(k % m_plan.units)),
                   k);
    return io::pull_result::job;
  }
  void close() { m_closed.store(true); }
  std::uint64_t units_of_epoch() const { return m_plan.units; }

private:
  const dataset_layout& m_layout;
  unit_plan m_plan;
  std::uint64_t m_seed;
  std::uint64_t m_total;
  std::atomic<std::uint64_t> m_cursor{0};
  std::atomic<bool> m_closed{false};
};

struct alignas(64) reader_tally {
  std::atomic<std::uint64_t> bytes{0};
  std::atomic<std::uint64_t> samples{0};
  std::vector<std::uint64_t> epoch_samples, epoch_bytes;
  std::vector<std::uint64_t> epoch_end_ns;
  histogram sample_latency;
  std::uint64_t failed_jobs = 0;
  std::uint64_t records_verified = 0;
  std::uint64_t mismatches = 0;
  std::vector<std::string> problems;
  std::string first_error;
  std::uint64_t digest = 0; // order-independent sum over jobs of hash(file, offset, crc of bytes)
  // In-flight verifiers, keyed by job tag, with the running CRC of the job's bytes.
  std::vector<std::pair<std::uint64_t, dataset::record_verifier>> verifiers;
  std::vector<std::uint32_t> job_crc;
};

class bench_consumer : public io::job_consumer {
public:
  bench_consumer(const dataset_layout& layout, const unit_plan& plan, unsigned readers,
                 std::uint64_t epochs, bool verify)
      : m_layout(layout), m_plan(plan), m_verify(verify), m_tally(readers) {
    for (auto& t : m_tally) {
      t.epoch_samples.assign(epochs, 0);
      t.epoch_bytes.assign(epochs, 0);
      t.epoch_end_ns.assign(epochs, 0);
    }
  }
  bool ordered() const override { return m_verify; }
  void on_start(unsigned reader, const io::read_job& job) override {
    if (!m_verify)
      return;
    auto& t = m_tally[reader];
    auto it = std::find_if(t.verifiers.begin(), t.verifiers.end(),
                           [](auto& p) { return p.first == UINT64_MAX; });
    if (it == t.verifiers.end()) {
      t.verifiers.emplace_back();
      t.job_crc.push_back(0);
      it = t.verifiers.end() - 1;
    }
    it->first = job.tag;
    t.job_crc[static_cast<std::size_t>(it - t.verifiers.begin())] = 0;
    const std::uint64_t first =
        m_plan.per_record ? record_of(job) : m_layout.first_record(job.file);
    it->second.reset(m_layout, job.file, first, m_plan.samples_per_unit);
  }
  void on_data(unsigned reader, const io::read_job& job, std::uint64_t off, const std::byte* data,
               std::size_t bytes) override {
    if (!m_verify)
      return;
    auto& t = m_tally[reader];
    const std::size_t i = find_index(reader, job.tag);
    t.verifiers[i].second.feed(off, data, bytes);
    t.job_crc[i] = crc32c(t.job_crc[i], data, bytes);
  }
  void on_done(unsigned reader, const io::read_job& job, std::uint64_t bytes,
               std::uint64_t latency_ns, io::job_outcome outcome,
               const std::string& error) override {
    auto& t = m_tally[reader];
    const std::uint64_t epoch = job.tag / m_plan.units;
    t.bytes.fetch_add(bytes, std::memory_order_relaxed);
    t.epoch_bytes[epoch] += bytes;
    const bool done = outcome == io::job_outcome::done;
    if (m_verify) {
      const std::size_t vi = find_index(reader, job.tag);
      auto& v = t.verifiers[vi].second;
      if (done)
        t.digest +=
            splitmix64(t.job_crc[vi] ^ (std::uint64_t{job.file} << 32) ^ splitmix64(job.offset));
      if (done && !v.complete())
        v.fail("ended before all its records were read");
      if (outcome != io::job_outcome::failed) {
        t.records_verified += v.checked();
        t.mismatches += v.mismatches();
        if (v.mismatches() && t.problems.size() < 100)
          t.problems.push_back(v.first_error());
      }
      for (auto& p : t.verifiers)
        if (p.first == job.tag)
          p.first = UINT64_MAX;
    }
    if (!done) {
      if (outcome == io::job_outcome::failed && t.failed_jobs++ == 0)
        t.first_error = error;
      return;
    }
    t.samples.fetch_add(m_plan.samples_per_unit, std::memory_order_relaxed);
    t.epoch_samples[epoch] += m_plan.samples_per_unit;
    t.epoch_end_ns[epoch] = std::max(t.epoch_end_ns[epoch], now_ns());
    t.sample_latency.record(latency_ns);
  }
  std::vector<reader_tally>& tallies() { return m_tally; }
  std::uint64_t bytes() const {
    std::uint64_t b = 0;
    for (auto& t : m_tally)
      b += t.bytes.load(std::memory_order_relaxed);
    return b;
  }
  std::uint64_t samples() const {
    std::uint64_t s = 0;
    for (auto& t : m_tally)
      s += t.samples.load(std::memory_order_relaxed);
    return s;
  }

private:
  std::uint64_t record_of(const io::read_job& job) const {
    // The record whose offset is job.offset inside job.file.
    const std::uint64_t first = m_layout.first_record(job.file);
    const std::uint64_t n = m_layout.params().records_per_file;
    std::uint64_t lo = first, hi = first + n;
    while (hi - lo > 1) {
      const std::uint64_t mid = (lo + hi) / 2;
      if (m_layout.record_offset(mid) <= job.offset)
        lo = mid;
      else
        hi = mid;
    }
    return lo;
  }
  std::size_t find_index(unsigned reader, std::uint64_t tag) {
    auto& v = m_tally[reader].verifiers;
    for (std::size_t i = 0; i < v.size(); ++i)
      if (v[i].first == tag)
        return i;
    throw run_error("internal: no verifier for a job in flight");
  }

  const dataset_layout& m_layout;
  unit_plan m_plan;
  bool m_verify;
  std::vector<reader_tally> m_tally;
};

} // namespace

storage_bench_result run_storage_bench(const storage_bench_options& opt,
                                       const nlohmann::json& command_line) {
  dataset_layout layout = dataset::open_dataset(opt.dataset);
  const auto& params = layout.params();
  if (!opt.workload.empty() && params.workload != opt.workload)
    throw usage_error(fmt::format("--dataset: '{}' was generated for workload '{}', not '{}'. "
                                  "valid: --workload {} or a dataset generated for {}",
                                  opt.dataset.string(), params.workload, opt.workload,
                                  params.workload, opt.workload));
  if (opt.epochs < 1)
    throw usage_error("--epochs: must be at least 1");
  unit_plan plan;
  const bool shards = params.layout == config::file_layout::shards;
  if (shards && opt.shards == shard_read::records) {
    plan.per_record = true;
    plan.units = layout.records();
  } else {
    plan.units = layout.files();
    plan.samples_per_unit = params.records_per_file;
  }
  if (plan.units > UINT32_MAX)
    throw usage_error("--dataset: more than 2^32 read units");
  const io::file_set files = check_files(layout);

  std::string fallback;
  auto eng = io::make_engine(opt.io, files, fallback);
  epoch_source source(layout, plan, opt.seed, opt.epochs);
  bench_consumer consumer(layout, plan, opt.io.readers, opt.epochs, opt.verify);

  std::atomic<bool> stop{false};
  const std::uint64_t total_bytes_planned = layout.total_bytes() * opt.epochs;
  const auto mount = sysinfo::mount_of(opt.dataset.string());
  // Before any read: a stat of a mount whose server hangs a read can hang as well.
  const nlohmann::json provenance = telemetry::host_provenance(opt.dataset);
  const telemetry::nvml gpus;
  telemetry::sampler tele(mount, gpus);
  const nlohmann::json memory_start = telemetry::memory_json();
  stop_event stop_asked;
  run_monitor monitor(
      tele,
      {opt.sample_interval_s, opt.time_limit_s, opt.progress, 0, opt.stall_timeout_s,
       [&](std::uint64_t age) { return eng->stuck_read(age); }, &stop, 0.5, opt.status},
      [&] {
        return run_counters{consumer.bytes(), consumer.samples(), 0};
      },
      [&](double el, const run_counters& c) {
        const double frac = static_cast<double>(c.bytes) /
                            static_cast<double>(std::max<std::uint64_t>(1, total_bytes_planned));
        return fmt::format("bench: {} of {} ({:.0f} %), {}, {:.0f} samples/s, ETA {:.0f} s",
                           units::format_bytes_binary(static_cast<double>(c.bytes)),
                           units::format_bytes_binary(static_cast<double>(total_bytes_planned)),
                           100 * frac,
                           units::format_rate_both(el > 0 ? static_cast<double>(c.bytes) / el : 0),
                           el > 0 ? static_cast<double>(c.samples) / el : 0,
                           frac > 0 ? el * (1 - frac) / frac : 0);
      },
      [&](const stop_event& why) {
        stop_asked = why;
        // A signal or a stall abandons the jobs in flight; the time limit lets them finish.
        if (why.cause != stop_cause::time_limit)
          stop.store(true);
        source.close();
      });
  const std::uint64_t t0 = monitor.start();
  const io::engine_result ran = eng->run(source, consumer, stop);
  const std::string& engine_error = ran.error;
  const std::vector<io::reader_stats>& stats = ran.readers;
  run_totals totals = monitor.finish();
  const double wall = totals.wall_s;
  const auto& cpu = totals.cpu;

  const io::reader_stats all = merge_stats(stats);
  histogram sample_latency;
  std::uint64_t samples = 0, verified = 0, mismatches = 0, failed_jobs = 0, digest = 0;
  std::vector<std::string> problems;
  std::string first_job_error;
  for (auto& t : consumer.tallies()) {
    samples += t.samples.load();
    verified += t.records_verified;
    mismatches += t.mismatches;
    failed_jobs += t.failed_jobs;
    if (first_job_error.empty())
      first_job_error = t.first_error;
    sample_latency.merge(t.sample_latency);
    digest += t.digest;
    for (auto& p : t.problems)
      problems.push_back(p);
  }
  std::sort(problems.begin(), problems.end());
  const double cpu_s = cpu.process_user_s + cpu.process_system_s;
  const double gib = static_cast<double>(all.bytes) / (1024.0 * 1024.0 * 1024.0);

  nlohmann::json epochs = nlohmann::json::array();
  for (std::uint64_t e = 0; e < opt.epochs; ++e) {
    std::uint64_t es = 0, eb = 0, end = 0;
    for (auto& t : consumer.tallies()) {
      es += t.epoch_samples[e];
      eb += t.epoch_bytes[e];
      end = std::max(end, t.epoch_end_ns[e]);
    }
    epochs.push_back({{"epoch", e},
                      {"samples", es},
                      {"read_bytes", eb},
                      {"end_s", end ? static_cast<double>(end - t0) * 1e-9 : 0.0}});
  }

  nlohmann::json warnings = nlohmann::json::array();
  add_run_warnings(warnings, opt.io, *eng, layout, fallback);
  for (const auto& a : ran.abandoned)
    warnings.push_back(a);
  report::status_inputs si;
  si.failure = engine_error;
  si.stop = stop_asked;
  // A stop the monitor saw after the last job completed stopped nothing.
  si.work_done = samples == plan.units * plan.samples_per_unit * opt.epochs;
  si.problems = {{std::max(all.errors, failed_jobs), "read errors",
                  all.first_error.empty() ? first_job_error : all.first_error},
                 {mismatches, "records failed verification",
                  problems.empty() ? std::string() : problems.front()}};
  const report::status_decision decided = report::decide_status(si);
  const std::string status = report::to_string(decided.status);
  const std::string& reason = decided.reason;
  if (decided.stopped_at_time_limit)
    warnings.push_back(report::time_limit_warning(true));

  nlohmann::json storage_sec = storage_json(tele.storage().available(), tele.storage().source(),
                                            totals.storage_bytes, all.bytes, wall, memory_start,
                                            telemetry::memory_json(), mount.fs_type, warnings);
  const bool whole_files = !plan.per_record;
  nlohmann::json summary = {
      {"wall_s", wall},
      {"epochs", opt.epochs},
      {"samples", samples},
      {"read_bytes", all.bytes},
      {"read_bytes_per_s", wall > 0 ? static_cast<double>(all.bytes) / wall : 0.0},
      {"samples_per_s", wall > 0 ? static_cast<double>(samples) / wall : 0.0},
      {"files_per_s", whole_files && wall > 0 ? nlohmann::json(static_cast<double>(all.jobs) / wall)
                                              : nlohmann::json(nullptr)},
      {"requests", all.requests},
  };
  add_cpu_cost(summary, cpu, all.bytes, samples);
  const nlohmann::json io_sec = io_json(opt.io, eng->name(), eng->uncached_method(), all,
                                        sample_latency, plan.per_record ? "record" : "file");
  nlohmann::json report = report::report_header("bench", command_line);
  report.update({
      {"config", opt.config},
      {"workload",
       {{"name", params.workload},
        {"layout", config::to_string(params.layout)},
        {"format", params.format}}},
      {"dataset", dataset_json(opt.dataset, layout, mount)},
      {"system", report::system_json(gpus.devices(), gpus.status(), provenance)},
      {"topology", {{"ranks", 1}, {"nodes", 1}, {"accelerators", 0}, {"accelerators_per_node", 0}}},
      {"summary", summary},
      {"epochs", epochs},
      {"io", io_sec},
      {"storage", storage_sec},
      {"timeseries", std::move(totals.timeseries)},
      {"warnings", warnings},
      {"status", status},
  });
  if (!reason.empty())
    report["reason"] = reason;
  report::add_provenance(report);
  if (opt.verify)
    report["verify"] = {{"records_checked", verified},
                        {"mismatches", mismatches},
                        {"problems", problems},
                        {"content_digest", fmt::format("{:016x}", digest)}};

  storage_bench_result res;
  res.failed = status != "complete";
  res.summary_text = fmt::format(
      "engine {} ({} cache{}), readers {}, queue depth {}, request {}\n"
      "  read        {} in {:.2f} s: {}\n"
      "  samples/s   {:.1f}{}\n"
      "  latency     p50 {:.3f} ms  p90 {:.3f} ms  p99 {:.3f} ms  p99.9 {:.3f} ms (per request)\n"
      "  cpu         process {:.1f} % of one core, host {:.1f} %; {:.3f} CPU s per GiB\n"
      "  status      {}{}\n",
      eng->name(), io::to_string(opt.io.cache),
      eng->uncached_method().empty() ? "" : ", " + eng->uncached_method(), opt.io.readers,
      opt.io.queue_depth, units::format_bytes_binary(opt.io.request_size),
      units::format_bytes_binary(static_cast<double>(all.bytes)), wall,
      units::format_rate_both(wall > 0 ? static_cast<double>(all.bytes) / wall : 0),
      wall > 0 ? static_cast<double>(samples) / wall : 0,
      whole_files && wall > 0
          ? fmt::format("   files/s {:.1f}", static_cast<double>(all.jobs) / wall)
          : "",
      all.read_latency.quantile(0.5) * 1e-6, all.read_latency.quantile(0.9) * 1e-6,
      all.read_latency.quantile(0.99) * 1e-6, all.read_latency.quantile(0.999) * 1e-6,
      cpu.process_utilization * 100, cpu.host_utilization * 100, gib > 0 ? cpu_s / gib : 0.0,
      status, reason.empty() ? "" : ": " + reason);
  if (opt.verify)
    res.summary_text +=
        fmt::format("  verify      {} records checked, {} mismatches\n", verified, mismatches);
  res.report = std::move(report);
  res.abandoned = ran.abandoned;
  return res;
}

} // namespace dlsize::pipeline
