#include "pipeline/run_report.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>

#include <fmt/format.h>

#include "config/read_modes.hpp"
#include "core/error.hpp"
#include "core/units.hpp"
#include "report/bench_report.hpp"
#include "telemetry/storage_counters.hpp"

namespace dlsize::pipeline {

io::file_set check_files(const dataset::dataset_layout& layout) {
  io::file_set fs;
  fs.paths.reserve(layout.files());
  fs.sizes.reserve(layout.files());
  for (std::uint64_t f = 0; f < layout.files(); ++f) {
    const std::string p = layout.file_path(f).string();
    struct stat st {};
    if (stat(p.c_str(), &st) != 0)
      throw run_error(fmt::format("dataset file missing: {}. file: {}; dataset: {}",
                                  errno_text(errno), p, layout.root().string()));
    if (static_cast<std::uint64_t>(st.st_size) != layout.file_bytes(f))
      throw run_error(fmt::format("dataset file has the wrong size: {} bytes, the manifest says {} "
                                  "(truncated or replaced?). file: {}",
                                  st.st_size, layout.file_bytes(f), p));
    fs.paths.push_back(p);
    fs.sizes.push_back(layout.file_bytes(f));
  }
  fs.watch = layout.watch();
  return fs;
}

io::read_job unit_job(const dataset::dataset_layout& layout, bool per_record, std::uint64_t unit,
                      std::uint64_t tag) {
  io::read_job job;
  if (per_record) {
    job.file = static_cast<std::uint32_t>(layout.file_of(unit));
    job.offset = layout.record_offset(unit);
    job.length = layout.record_bytes(unit);
  } else {
    job.file = static_cast<std::uint32_t>(unit);
    job.offset = 0;
    job.length = layout.file_bytes(unit);
  }
  job.tag = tag;
  return job;
}

io::reader_stats merge_stats(const std::vector<io::reader_stats>& stats) {
  io::reader_stats all;
  for (const auto& s : stats) {
    all.requests += s.requests;
    all.bytes += s.bytes;
    all.jobs += s.jobs;
    all.opens += s.opens;
    all.short_reads += s.short_reads;
    all.retries += s.retries;
    all.errors += s.errors;
    if (all.first_error.empty())
      all.first_error = s.first_error;
    all.read_latency.merge(s.read_latency);
    all.open_latency.merge(s.open_latency);
    all.cpu_ns += s.cpu_ns;
    all.run_ns += s.run_ns;
    all.completion_wait_ns += s.completion_wait_ns;
    all.queue_full_ns += s.queue_full_ns;
    all.in_flight_ns += s.in_flight_ns;
    all.busiest_cpu_share = std::max(all.busiest_cpu_share, s.busiest_cpu_share);
  }
  return all;
}

namespace {

// The index a listed dataset came from, its changes found before the run and those the readers
// found at open (io/change_watch.hpp) together.
report::index_origin index_of(const dataset::dataset_layout& layout) {
  report::index_origin o = *layout.origin();
  if (!layout.watch())
    return o;
  const auto during = layout.watch()->changes_seen();
  report::index_changes c = o.changed.value_or(report::index_changes{});
  c.count = c.count.value_or(0) + during.count;
  std::vector<std::string> files = c.files.value_or({});
  for (const auto& f : during.files)
    if (files.size() < 100)
      files.push_back(f);
  c.files = files;
  c.while_reading = during.count;
  o.changed = c;
  return o;
}

} // namespace

report::dataset_section dataset_json(const std::filesystem::path& path,
                                     const dataset::dataset_layout& layout,
                                     const sysinfo::mount_info& mount, std::uint64_t client_ram) {
  const std::uint64_t ram = client_ram ? client_ram : sysinfo::ram_bytes();
  report::dataset_section d;
  d.path = path.string();
  d.fs_type = mount.fs_type;
  d.mount_point = mount.mount_point;
  d.device = mount.source;
  d.bytes = layout.total_bytes();
  d.files = layout.files();
  d.samples = layout.records();
  d.records_per_file = layout.params().records_per_file;
  d.client_ram_bytes = ram;
  d.bytes_over_ram =
      ram ? static_cast<double>(layout.total_bytes()) / static_cast<double>(ram) : 0.0;
  d.dataset_id = fmt::format("{:016x}", layout.dataset_id());
  if (layout.origin())
    d.index = index_of(layout);
  return d;
}

report::field<report::reader_time_section> reader_time_json(const io::reader_stats& all) {
  if (all.run_ns == 0)
    return report::field<report::reader_time_section>::null();
  const auto run = static_cast<double>(all.run_ns);
  report::reader_time_section t;
  t.cpu_s = static_cast<double>(all.cpu_ns) * 1e-9;
  t.run_s = run * 1e-9;
  t.busiest_cpu_share = all.busiest_cpu_share;
  t.cpu_share = static_cast<double>(all.cpu_ns) / run;
  t.completion_wait_share = static_cast<double>(all.completion_wait_ns) / run;
  t.queue_full_share = static_cast<double>(all.queue_full_ns) / run;
  t.mean_in_flight = all.in_flight_ns / run;
  return t;
}

namespace {

// A value, or null where the run has none.
template <class T> report::field<T> or_null(bool has, T v) {
  return has ? report::field<T>(std::move(v)) : report::field<T>::null();
}

} // namespace

report::io_section io_json(const io::engine_options& opt, const std::string& engine,
                           const std::string& uncached_method, const io::reader_stats& all,
                           const histogram& sample_latency, const std::string& read_unit,
                           const setup_times& setup) {
  report::io_section s;
  s.engine = engine;
  s.engine_requested = opt.engine;
  // Objects have no client page cache: every byte of an s3 run comes from the server.
  s.cache_mode = engine == "s3" ? std::string("none") : io::to_string(opt.cache);
  s.uncached_method = or_null(!uncached_method.empty(), uncached_method);
  s.queue_depth = opt.queue_depth;
  s.request_size = opt.request_size;
  s.readers = opt.readers;
  s.open = std::string(
      core::name_of(opt.keep_open ? config::open_mode::keep : config::open_mode::per_sample));
  s.read_unit = read_unit;
  s.max_read_rate = or_null(opt.max_read_rate > 0, opt.max_read_rate);
  s.requests = all.requests;
  s.read_bytes = all.bytes;
  s.opens = all.opens;
  s.short_reads = all.short_reads;
  s.retries = all.retries;
  s.errors = all.errors;
  s.first_error = or_null(!all.first_error.empty(), all.first_error);
  s.latency = report::latency_summary_of(all.read_latency);
  s.histogram = all.read_latency.to_json();
  s.sample_latency = report::latency_with_histogram(sample_latency);
  s.open_latency = or_null(all.opens != 0, report::latency_with_histogram(all.open_latency));
  s.reader_time = reader_time_json(all);
  report::io_setup_section before;
  before.stat_s = setup.stat_s;
  before.open_s = or_null(setup.keep_open, setup.open_s);
  before.counted_s = setup.counted_s();
  s.setup = before;
  return s;
}

void add_run_warnings(nlohmann::json& warnings, const io::engine_options& opt,
                      const io::engine& eng, const dataset::dataset_layout& layout,
                      const std::string& fallback) {
  if (!fallback.empty())
    warnings.push_back(fallback);
  const std::uint64_t ram = sysinfo::ram_bytes();
  if (opt.cache == io::cache_mode::buffered && layout.total_bytes() < 5 * ram)
    warnings.push_back(
        fmt::format("buffered reads of a dataset ({}) smaller than 5 x this host's "
                    "RAM ({}): the page cache may serve much of it",
                    units::format_bytes_binary(static_cast<double>(layout.total_bytes())),
                    units::format_bytes_binary(static_cast<double>(ram))));
  if ((opt.engine == "psync" || eng.name() == "psync") && opt.queue_depth > 1)
    warnings.push_back(
        "psync engine: one request at a time per reader; --queue-depth does not apply");
}

void add_cpu_cost(report::summary_section& summary, const telemetry::cpu_usage& cpu,
                  std::uint64_t bytes, std::uint64_t samples) {
  const double cpu_s = cpu.process_user_s + cpu.process_system_s;
  const double gib = static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0);
  report::cpu_summary& u = summary.cpu_utilization.emplace();
  u.process = cpu.process_utilization;
  u.host = cpu.host_utilization;
  u.process_user_s = cpu.process_user_s;
  u.process_system_s = cpu.process_system_s;
  u.budget_cores = or_null(cpu.budget_cores > 0, cpu.budget_cores);
  u.budget_share = or_null(cpu.budget_cores > 0, cpu.budget_share);
  summary.cpu_s_per_gib = or_null(gib > 0, cpu_s / gib);
  summary.cpu_s_per_1000_samples =
      or_null(samples != 0, cpu_s * 1000.0 / static_cast<double>(samples));
}

report::storage_section storage_json(bool counter_available, const std::string& counter_source,
                                     std::uint64_t storage_bytes, std::uint64_t consumed_bytes,
                                     double wall_s,
                                     const std::optional<telemetry::memory_figures>& memory_start,
                                     const std::optional<telemetry::memory_figures>& memory_end,
                                     const std::string& fs_type, nlohmann::json& warnings) {
  report::storage_section s;
  s.counter = or_null(counter_available, counter_source);
  s.memory_start = report::field<telemetry::memory_figures>::of(memory_start);
  s.memory_end = report::field<telemetry::memory_figures>::of(memory_end);
  s.read_bytes = or_null(counter_available, storage_bytes);
  s.read_bytes_per_s =
      or_null(counter_available, wall_s > 0 ? static_cast<double>(storage_bytes) / wall_s : 0.0);
  // Bytes consumed that the storage did not deliver came from a cache in front of it.
  s.hit_ratio = or_null(counter_available,
                        consumed_bytes ? std::clamp(1.0 - static_cast<double>(storage_bytes) /
                                                              static_cast<double>(consumed_bytes),
                                                    0.0, 1.0)
                                       : 0.0);
  if (!counter_available)
    warnings.push_back(fmt::format("no storage counters for the dataset's file system ({}); the "
                                   "cache hit ratio is not measured",
                                   fs_type));
  return s;
}

} // namespace dlsize::pipeline
