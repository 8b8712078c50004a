#pragma once
// Report sections every bench shares (storage only and training): the dataset, the I/O
// engine's figures, the storage counters and cache honesty, latency summaries.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/histogram.hpp"
#include "core/sysinfo.hpp"
#include "dataset/layout.hpp"
#include "io/engine.hpp"
#include "report/bench_report.hpp"
#include "telemetry/cpu_usage.hpp"

namespace dlsize::pipeline {

// Checks every dataset file exists with the manifest's size. Throws run_error naming the file.
io::file_set check_files(const dataset::dataset_layout& layout);

// The read of one unit: record `unit` of a shard (per_record), or the whole file `unit`.
io::read_job unit_job(const dataset::dataset_layout& layout, bool per_record, std::uint64_t unit,
                      std::uint64_t tag);

// The readers' figures added up.
io::reader_stats merge_stats(const std::vector<io::reader_stats>& stats);

// The report's dataset block. Its client RAM (and the dataset's bytes over it) is client_ram,
// the emulated client's (--client-ram), or the host's when 0.
report::dataset_section dataset_json(const std::filesystem::path& path,
                                     const dataset::dataset_layout& layout,
                                     const sysinfo::mount_info& mount, std::uint64_t client_ram);

// What a run spent before its timed phase: the files' stats (run_files) and --open keep's opens
// (io::engine::open_s). The opens are the data path's own cost, so the bandwidth counts them
// (counted_s); the stats are dlsize's check, reported only (docs/metrics.md).
struct setup_times {
  double stat_s = 0, open_s = 0;
  bool keep_open = false;
  double counted_s() const { return keep_open ? open_s : 0; }
};

// The `io` section: engine, cache mode, queue depth, request size, counters and latencies.
// engine: the engine that ran (io_uring, or psync after a fallback); uncached_method: how
// uncached mode was done ("" when not); setup: what came before the timed phase.
report::io_section io_json(const io::engine_options& opt, const std::string& engine,
                           const std::string& uncached_method, const io::reader_stats& all,
                           const histogram& sample_latency, const std::string& read_unit,
                           const setup_times& setup);

// io.reader_time: where the readers' time went; null when no reader ran.
report::field<report::reader_time_section> reader_time_json(const io::reader_stats& all);

// Warnings on cache honesty and engine choices, appended to warnings.
void add_run_warnings(nlohmann::json& warnings, const io::engine_options& opt,
                      const io::engine& eng, const dataset::dataset_layout& layout,
                      const std::string& fallback);

// Sets cpu_utilization, cpu_s_per_gib and cpu_s_per_1000_samples (the harness's own cost) in
// a summary.
void add_cpu_cost(report::summary_section& summary, const telemetry::cpu_usage& cpu,
                  std::uint64_t bytes, std::uint64_t samples);

// The `storage` section: counter source, bytes the storage delivered, hit ratio
// (1 − storage bytes / bytes consumed), memory at start and end. Adds a warning when no
// counter fits the file system.
report::storage_section storage_json(bool counter_available, const std::string& counter_source,
                                     std::uint64_t storage_bytes, std::uint64_t consumed_bytes,
                                     double wall_s,
                                     const std::optional<telemetry::memory_figures>& memory_start,
                                     const std::optional<telemetry::memory_figures>& memory_end,
                                     const std::string& fs_type, nlohmann::json& warnings);

} // namespace dlsize::pipeline
