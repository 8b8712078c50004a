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
#include "core/memory_budget.hpp"
#include "core/progress.hpp"
#include "core/rng.hpp"
#include "core/stop.hpp"
#include "core/sysinfo.hpp"
#include "core/units.hpp"
#include "dataset/index_layout.hpp"
#include "dataset/layout.hpp"
#include "dataset/record_verifier.hpp"
#include "pipeline/epoch_order.hpp"
#include "pipeline/run_monitor.hpp"
#include "pipeline/run_report.hpp"
#include "pipeline/step_metrics.hpp"
#include "pipeline/storage_rollup.hpp"
#include "report/bench_report.hpp"
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

// One reader's counts (what the rollup adds up), with the totals the monitor reads while it runs.
struct alignas(64) reader_tally {
  std::atomic<std::uint64_t> bytes{0};
  std::atomic<std::uint64_t> samples{0};
  reader_counts counts;
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
      t.counts.epoch_samples.assign(epochs, 0);
      t.counts.epoch_bytes.assign(epochs, 0);
      t.counts.epoch_end_ns.assign(epochs, 0);
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
    auto& n = t.counts;
    const std::uint64_t epoch = job.tag / m_plan.units;
    t.bytes.fetch_add(bytes, std::memory_order_relaxed);
    n.epoch_bytes[epoch] += bytes;
    const bool done = outcome == io::job_outcome::done;
    if (m_verify) {
      const std::size_t vi = find_index(reader, job.tag);
      auto& v = t.verifiers[vi].second;
      if (done)
        n.digest +=
            splitmix64(t.job_crc[vi] ^ (std::uint64_t{job.file} << 32) ^ splitmix64(job.offset));
      if (done && !v.complete())
        v.fail("ended before all its records were read");
      if (outcome != io::job_outcome::failed) {
        n.records_verified += v.checked();
        n.mismatches += v.mismatches();
        if (v.mismatches() && n.problems.size() < 100)
          n.problems.push_back(v.first_error());
      }
      for (auto& p : t.verifiers)
        if (p.first == job.tag)
          p.first = UINT64_MAX;
    }
    if (!done) {
      if (outcome == io::job_outcome::failed && n.failed_jobs++ == 0)
        n.first_error = error;
      return;
    }
    t.samples.fetch_add(m_plan.samples_per_unit, std::memory_order_relaxed);
    n.epoch_samples[epoch] += m_plan.samples_per_unit;
    n.epoch_end_ns[epoch] = std::max(n.epoch_end_ns[epoch], now_ns());
    n.sample_latency.record(latency_ns);
  }
  // Every reader's counts, once the readers are done.
  std::vector<reader_counts> counts() const {
    std::vector<reader_counts> out;
    for (const auto& t : m_tally) {
      out.push_back(t.counts);
      out.back().samples = t.samples.load();
    }
    return out;
  }
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
    const std::uint64_t n = m_layout.records_in(job.file);
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

// What one read job covers, checked against the dataset. Throws usage_error for a dataset of
// another workload, no epochs, or more units than a tag can name.
unit_plan plan_units(const storage_bench_options& opt, const dataset_layout& layout) {
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
  // Jobs are numbered over every epoch, and each reader keeps a row of counts per epoch.
  if (core::saturating_mul(plan.units, opt.epochs) >= (std::uint64_t{1} << 63))
    throw usage_error(fmt::format("--epochs {} × {} read units per epoch: more reads than a job "
                                  "number holds (2^63). valid: fewer --epochs, or --time-limit",
                                  opt.epochs, plan.units));
  core::check_memory_budget(
      core::saturating_mul(core::saturating_mul(opt.epochs, opt.io.readers + 1),
                           sizeof(epoch_counts)),
      fmt::format("--epochs {} × --readers {} (a row of counts per epoch each)", opt.epochs,
                  opt.io.readers),
      "fewer --epochs (with --time-limit, only as many as the limit allows), or fewer --readers");
  return plan;
}

// What the bench reads from and with: fixed before the first read.
struct storage_context {
  const storage_bench_options& opt;
  const nlohmann::json& command_line;
  const dataset_layout& layout;
  unit_plan plan;
  sysinfo::mount_info mount;
  telemetry::host_provenance_facts
      provenance;       // taken before any read: a stat of a hung mount hangs too
  std::string fallback; // why the engine asked for is not the one used ("" if it is)
  std::unique_ptr<io::engine> eng;
  setup_times setup; // the stats and --open keep's opens before the timed phase
};

// What the monitored reads left.
struct storage_reads {
  io::engine_result ran;
  run_totals totals;
  stop_event stop; // a stop the monitor asked for
  std::uint64_t t0 = 0;
  io::reader_stats all;  // the readers' stats, merged
  storage_rollup rollup; // their counts, added up
};

std::string progress_line(double el, const run_counters& c, std::uint64_t planned_bytes) {
  const double frac =
      static_cast<double>(c.bytes) / static_cast<double>(std::max<std::uint64_t>(1, planned_bytes));
  return fmt::format("bench: {} of {} ({:.0f} %), {}, {:.0f} samples/s, ETA {:.0f} s",
                     units::format_bytes_binary(static_cast<double>(c.bytes)),
                     units::format_bytes_binary(static_cast<double>(planned_bytes)), 100 * frac,
                     units::format_rate_both(el > 0 ? static_cast<double>(c.bytes) / el : 0),
                     el > 0 ? static_cast<double>(c.samples) / el : 0,
                     frac > 0 ? el * (1 - frac) / frac : 0);
}

storage_reads run_reads(const storage_context& c, telemetry::sampler& tele) {
  const storage_bench_options& opt = c.opt;
  epoch_source source(c.layout, c.plan, opt.seed, opt.epochs);
  bench_consumer consumer(c.layout, c.plan, opt.io.readers, opt.epochs, opt.verify);
  std::atomic<bool> stop{false};
  const std::uint64_t planned_bytes = c.layout.total_bytes() * opt.epochs;
  storage_reads out;
  run_monitor monitor(
      tele,
      {opt.sample_interval_s, opt.time_limit_s, opt.progress, 0, opt.stall_timeout_s,
       [&](std::uint64_t age) { return c.eng->stuck_read(age); }, &stop, 0.5, opt.status},
      [&] {
        return run_counters{consumer.bytes(), consumer.samples(), 0};
      },
      [&](double el, const run_counters& rc) { return progress_line(el, rc, planned_bytes); },
      [&](const stop_event& why) {
        out.stop = why;
        // A signal or a stall abandons the jobs in flight; the time limit lets them finish.
        if (why.cause != stop_cause::time_limit)
          stop.store(true);
        source.close();
      });
  out.t0 = monitor.start();
  out.ran = c.eng->run(source, consumer, stop);
  out.totals = monitor.finish();
  out.all = merge_stats(out.ran.readers);
  out.rollup = roll_up(consumer.counts(), opt.epochs);
  return out;
}

// A row for each epoch up to the last that read anything (a time limit or a stop leaves the
// rest unrun); past kEpochRowsCap, one row holds the rest (last_epoch, epochs_in_row), as the
// training report's.
std::vector<report::epoch_row> epoch_rows(const storage_rollup& r, std::uint64_t t0) {
  std::size_t ran = r.epochs.size();
  while (ran > 0 && r.epochs[ran - 1].samples == 0)
    --ran;
  std::vector<epoch_counts> rows(
      r.epochs.begin(),
      r.epochs.begin() + static_cast<std::ptrdiff_t>(std::min<std::uint64_t>(ran, kEpochRowsCap)));
  if (ran > kEpochRowsCap) {
    epoch_counts rest;
    for (std::size_t e = kEpochRowsCap; e < ran; ++e) {
      rest.samples += r.epochs[e].samples;
      rest.read_bytes += r.epochs[e].read_bytes;
      rest.end_ns = std::max(rest.end_ns, r.epochs[e].end_ns);
    }
    rows.push_back(rest);
  }
  std::vector<report::epoch_row> epochs;
  for (std::size_t e = 0; e < rows.size(); ++e) {
    const epoch_counts& ec = rows[e];
    report::epoch_row row;
    row.epoch = std::uint64_t{e};
    row.samples = ec.samples;
    row.read_bytes = ec.read_bytes;
    row.end_s = ec.end_ns ? static_cast<double>(ec.end_ns - t0) * 1e-9 : 0.0;
    if (e == kEpochRowsCap) {
      row.last_epoch = std::uint64_t{ran - 1};
      row.epochs_in_row = std::uint64_t{ran - kEpochRowsCap};
    }
    epochs.push_back(std::move(row));
  }
  return epochs;
}

// A failure of the engine, a stop that cut the reads short, read errors, then mismatches.
report::status_decision storage_status(const storage_context& c, const storage_reads& reads) {
  const io::reader_stats& all = reads.all;
  const storage_rollup& r = reads.rollup;
  report::status_inputs si;
  si.failure = reads.ran.error;
  si.stop = reads.stop;
  // A stop the monitor saw after the last job completed stopped nothing.
  si.work_done = r.samples == c.plan.units * c.plan.samples_per_unit * c.opt.epochs;
  si.problems = {{std::max(all.errors, r.failed_jobs), "read errors",
                  all.first_error.empty() ? r.first_error : all.first_error},
                 {r.mismatches, "records failed verification",
                  r.problems.empty() ? std::string() : r.problems.front()}};
  return report::decide_status(si);
}

report::summary_section storage_summary(const storage_context& c, const storage_reads& reads) {
  const io::reader_stats& all = reads.all;
  const storage_rollup& r = reads.rollup;
  const double wall = reads.totals.wall_s;
  const bool whole_files = !c.plan.per_record;
  // Epochs every unit of which was read (a stop ends the run inside one).
  const std::uint64_t per_epoch = c.plan.units * c.plan.samples_per_unit;
  const auto completed = static_cast<std::uint64_t>(
      std::count_if(r.epochs.begin(), r.epochs.end(),
                    [&](const epoch_counts& e) { return e.samples == per_epoch; }));
  report::summary_section s;
  add_cpu_cost(s, reads.totals.cpu, all.bytes, r.samples);
  s.wall_s = wall;
  s.epochs = c.opt.epochs;
  s.epochs_completed = completed;
  s.samples = r.samples;
  s.read_bytes = all.bytes;
  // The bandwidth counts --open keep's opens: the data path paid them, before the timed phase.
  const double paid = wall + c.setup.counted_s();
  s.read_bytes_per_s = paid > 0 ? static_cast<double>(all.bytes) / paid : 0.0;
  s.samples_per_s = wall > 0 ? static_cast<double>(r.samples) / wall : 0.0;
  s.files_per_s = report::field<double>::of(
      whole_files && wall > 0 ? std::optional(static_cast<double>(all.jobs) / wall) : std::nullopt);
  s.requests = all.requests;
  return s;
}

report::storage_section storage_block(const storage_context& c, const storage_reads& reads,
                                      const telemetry::sampler& tele,
                                      const telemetry::memory_figures& memory_start,
                                      nlohmann::json& warnings) {
  report::storage_section s =
      storage_json(tele.storage().available(), tele.storage().source(), reads.totals.storage_bytes,
                   reads.all.bytes, reads.totals.wall_s, memory_start, telemetry::memory_now(),
                   c.mount.fs_type, warnings);
  if (c.opt.s3)
    if (const auto figures = s3_figures(*c.eng))
      s.s3 = s3_section_of(*c.opt.s3, *figures);
  return s;
}

report::verify_section verify_block(const storage_rollup& r) {
  report::verify_section v;
  v.records_checked = r.verified;
  v.mismatches = r.mismatches;
  v.problems = r.problems;
  v.content_digest = fmt::format("{:016x}", r.digest);
  return v;
}

// The storage-only run's workload and topology: one rank on one node, no accelerators.
void set_storage_shape(report::bench_report& rep, const dataset::dataset_params& params) {
  report::workload_section w;
  w.name = params.workload;
  w.layout = std::string(config::to_string(params.layout));
  w.format = params.format;
  rep.workload = std::move(w);
  report::topology_section t;
  t.ranks = std::uint64_t{1};
  t.nodes = std::uint64_t{1};
  t.accelerators = std::uint64_t{0};
  t.accelerators_per_node = std::uint64_t{0};
  rep.topology = std::move(t);
}

report::bench_report storage_document(const storage_context& c, storage_reads& reads,
                                      const telemetry::sampler& tele, const telemetry::nvml& gpus,
                                      const telemetry::memory_figures& memory_start,
                                      const report::status_decision& decided) {
  const storage_bench_options& opt = c.opt;
  const io::reader_stats& all = reads.all;
  const storage_rollup& r = reads.rollup;
  nlohmann::json warnings = nlohmann::json::array();
  add_run_warnings(warnings, opt.io, *c.eng, c.layout, c.fallback);
  for (const auto& a : reads.ran.abandoned)
    warnings.push_back(a);
  for (const auto& p : reads.totals.pauses)
    warnings.push_back(p);
  if (decided.stopped_at_time_limit)
    warnings.push_back(report::time_limit_warning(true));
  report::bench_report rep = report::new_bench_report(c.command_line);
  rep.storage = storage_block(c, reads, tele, memory_start, warnings);
  rep.config = opt.config;
  set_storage_shape(rep, c.layout.params());
  rep.dataset = dataset_json(opt.dataset, c.layout, c.mount, opt.client_ram);
  rep.system = report::system_of({report::host_of(gpus.devices(), gpus.status(), c.provenance)});
  rep.summary = storage_summary(c, reads);
  rep.epochs = epoch_rows(r, reads.t0);
  rep.io = io_json(opt.io, c.eng->name(), c.eng->uncached_method(), all, r.sample_latency,
                   c.plan.per_record ? "record" : "file", c.setup);
  rep.timeseries = reads.totals.timeseries;
  rep.warnings = warnings.get<std::vector<std::string>>();
  rep.status = decided.status;
  if (!decided.reason.empty())
    rep.reason = decided.reason;
  report::add_provenance(rep);
  if (opt.verify)
    rep.verify = verify_block(r);
  return rep;
}

} // namespace

storage_bench_result run_storage_bench(const storage_bench_options& opt,
                                       const nlohmann::json& command_line) {
  const dataset_layout layout = open_run_dataset(opt.dataset, opt.index, opt.workload, opt.s3);
  storage_context c{opt, command_line, layout, plan_units(opt, layout), {}, {}, {}, {}, {}};
  const double t0 = now_s();
  const io::file_set files = run_files(layout, opt.s3);
  c.setup.stat_s = now_s() - t0;
  c.eng = make_run_engine(opt.io, files, opt.s3, c.fallback);
  c.setup.open_s = c.eng->open_s();
  c.setup.keep_open = opt.io.keep_open;
  c.mount = run_mount(opt.dataset, opt.s3);
  // Before any read: a stat of a mount whose server hangs a read can hang as well.
  c.provenance = run_provenance(opt.dataset, opt.s3);
  const telemetry::nvml gpus;
  telemetry::sampler tele(c.mount, gpus);
  const telemetry::memory_figures memory_start = telemetry::memory_now();
  storage_reads reads = run_reads(c, tele);
  const report::status_decision decided = storage_status(c, reads);

  storage_bench_result res;
  res.failed = decided.status != report::run_status::complete;
  res.abandoned = reads.ran.abandoned;
  res.report = storage_document(c, reads, tele, gpus, memory_start, decided);
  return res;
}

} // namespace dlsize::pipeline
