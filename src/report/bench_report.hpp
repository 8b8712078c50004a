#pragma once
// The typed bench report (`dlsize.report/1`): what bench writes and what size, compare and sweep
// read, as one struct tree with to_json/from_json (docs/report-schema.md lists every field).
//
// The sections bench fills typed (dataset, io, storage, cache_emulation, verify, the summary's
// CPU cost and limit verdict) type every field it writes; elsewhere the fields a reader or the
// terminal summary uses are typed. Every other field rides along in the `extra` object of its
// section. The rule, for every section: from_json moves each typed key
// out of the object into its field and keeps every other key (known or unknown) in `extra`;
// to_json writes `extra` and then the typed fields over it. So a report read and written again
// is equal to the one read, a typed field absent from the input stays absent, and a null stays
// null. A field of the wrong type or range is a usage_error naming its JSON pointer
// ("FILE: /summary/wall_s: ..."); the field lists in bench_report.cpp are the one place that
// says each field's type and range, for from_json and check_report_fields alike.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/histogram.hpp"
#include "report/report_io.hpp"
#include "report/run_status.hpp"

namespace dlsize::report {

// A report value a run may leave out (absent: not this kind of run's) or write as null (not
// measured).
template <class T> struct field {
  bool present = false;
  std::optional<T> value;

  field() = default;
  field(T v) : present(true), value(std::move(v)) {} // NOLINT: a value is a present field
  static field null() {
    field f;
    f.present = true;
    return f;
  }
  // A present value, or null when there is none.
  static field of(std::optional<T> v) {
    field f;
    f.present = true;
    f.value = std::move(v);
    return f;
  }
  bool has_value() const { return value.has_value(); }
  const T& operator*() const { return *value; }
  const T* operator->() const { return &*value; }
  T value_or(T fallback) const { return value.value_or(std::move(fallback)); }
};

// count, mean and percentiles of a latency (seconds), and the histogram they came from where
// the report keeps it (mergeable across runs and ranks).
struct latency_summary {
  field<std::uint64_t> count;
  field<double> mean_s, p50_s, p90_s, p99_s, p999_s, max_s;
  field<nlohmann::json> histogram; // ns, as core/histogram writes it
  nlohmann::json extra = nlohmann::json::object();
};

struct cpu_summary {
  field<double> process, host; // fractions of one core (process) and of the host
  field<double> process_user_s, process_system_s;
  nlohmann::json extra = nlohmann::json::object();
};

struct accelerator_section {
  field<std::string> type;
  field<std::uint64_t> batch_size;
  field<double> compute_time_s;
  nlohmann::json extra = nlohmann::json::object();
};

struct workload_section {
  field<std::string> name, epochs_source;
  field<std::uint64_t> epochs; // what the workload trains; null: the profile names none
  field<double> mean_sample_bytes;
  std::optional<accelerator_section> accelerator; // absent: a storage-only run
  nlohmann::json extra = nlohmann::json::object();
};

struct dataset_section {
  field<std::string> path, fs_type, mount_point, device, dataset_id;
  field<std::uint64_t> bytes, files, samples, records_per_file, client_ram_bytes;
  field<double> bytes_over_ram;
  field<nlohmann::json> index; // the index a listed dataset came from, and its changes
  nlohmann::json extra = nlohmann::json::object();
};

struct topology_section {
  field<std::uint64_t> ranks, nodes, accelerators, accelerators_per_rank, ranks_per_node;
  field<std::string> communicator;
  field<nlohmann::json> declared; // nodes declared on one host (--ranks-per-node), or null
  nlohmann::json extra = nlohmann::json::object();
};

// The figures behind summary.limited_by's verdict (null: not measured).
struct limit_figures_section {
  field<double> accelerator_utilization, busiest_reader_cpu_share, host_cpu_utilization;
  field<double> queue_full_share, completion_wait_share, mean_in_flight, queue_depth, readers;
  field<double> device_busy, max_read_rate, read_bytes_per_s;
  nlohmann::json extra = nlohmann::json::object();
};

// summary.limited_by: what held AU below 1 (report/limit_verdict.hpp).
struct limit_section {
  field<std::string> verdict, reason, advice; // advice null: nothing to change
  field<bool> synthetic;                      // the storage limit was --max-read-rate
  std::optional<limit_figures_section> figures;
  nlohmann::json extra = nlohmann::json::object();
};

struct summary_section {
  field<double> wall_s, samples_per_s, samples_per_s_per_accelerator, read_bytes_per_s, files_per_s;
  field<std::uint64_t> read_bytes, samples, requests;
  field<double> accelerator_utilization, accelerator_utilization_min, au_threshold;
  field<bool> au_pass;
  field<double> demand_bytes_per_s_per_accelerator, demand_bytes_per_s;
  field<std::uint64_t> epochs, epochs_completed, steps_per_epoch, steps;
  field<double> storage_au;
  field<limit_section> limited_by;
  std::optional<latency_summary> data_wait;
  std::optional<cpu_summary> cpu_utilization;
  field<double> cpu_s_per_gib, cpu_s_per_1000_samples;
  nlohmann::json extra = nlohmann::json::object();
};

// Where the readers' time went (docs/metrics.md): what the limit verdict judges the client by.
struct reader_time_section {
  field<double> cpu_s, run_s, cpu_share; // the readers' CPU time and run time, added up
  field<double> busiest_cpu_share, queue_full_share, completion_wait_share, mean_in_flight;
  nlohmann::json extra = nlohmann::json::object();
};

struct io_section {
  field<std::string> engine, engine_requested, cache_mode, uncached_method, open, read_unit;
  field<std::uint64_t> queue_depth, request_size, readers;
  field<double> max_read_rate;
  field<std::uint64_t> requests, read_bytes, opens, short_reads, retries, errors;
  field<std::string> first_error;
  std::optional<latency_summary> latency;        // per request
  field<nlohmann::json> histogram;               // per request, ns (core/histogram)
  std::optional<latency_summary> sample_latency; // per sample, with its histogram
  field<latency_summary> open_latency;           // null: no file was opened
  field<reader_time_section> reader_time;        // null: no reader ran
  nlohmann::json extra = nlohmann::json::object();
};

// The storage after the first (cold) epoch: what a cache sweep fits its curve to.
struct warm_epochs_section {
  field<double> from_s;                         // the first epoch's end
  field<double> read_bytes, storage_read_bytes; // consumed, and delivered by the storage
  field<double> hit_ratio;                      // 1 - storage ÷ read, within [0, 1]
  field<double> storage_per_read_byte;          // storage bytes per byte read; above 1 is readahead
  nlohmann::json extra = nlohmann::json::object();
};

// storage.s3, for a dataset in a bucket: which object store (endpoints, bucket, prefix, region,
// addressing, the server's Server header: part of the backend's identity) and what the reads
// asked of it (docs/report-schema.md).
struct s3_section {
  field<std::vector<std::string>> endpoints;
  field<std::string> bucket, prefix, region, addressing, server;
  field<std::uint64_t> requests, bytes, retries, errors, connections_opened;
  field<nlohmann::json> retries_by_cause, errors_by_cause; // {cause: count}
  std::optional<latency_summary> first_byte, latency;      // per request
  nlohmann::json extra = nlohmann::json::object();
};

struct storage_section {
  field<std::string> counter; // the storage counter's source; null: none fits the file system
  field<std::uint64_t> read_bytes;
  field<double> hit_ratio, read_bytes_per_s;
  field<nlohmann::json> memory_start, memory_end; // the host's memory (telemetry/memory)
  field<warm_epochs_section> warm_epochs;         // absent or null: one epoch, no counter
  std::optional<s3_section> s3;                   // absent: a dataset of files
  nlohmann::json extra = nlohmann::json::object();
};

// bench --client-ram: the memory cgroup the run was in.
struct cache_cgroup_section {
  field<std::uint64_t> version; // 1 or 2
  field<std::string> path, dir;
  field<bool> removed;
  field<std::uint64_t> ranks; // processes sharing it
  nlohmann::json extra = nlohmann::json::object();
};

struct eviction_section {
  field<std::uint64_t> files, bytes, resident_bytes_before, resident_bytes_after;
  nlohmann::json extra = nlohmann::json::object();
};

struct cache_emulation_section {
  field<std::uint64_t> client_ram_bytes;
  std::optional<cache_cgroup_section> cgroup;
  field<std::uint64_t> process_rss_bytes_start, footprint_bytes_start, footprint_bytes_peak;
  field<std::uint64_t> limit_bytes_start, limit_bytes_peak, limit_adjustments;
  field<std::uint64_t> limit_adjustments_refused, page_cache_bytes_peak;
  std::optional<eviction_section> evicted;
  nlohmann::json extra = nlohmann::json::object();
};

struct verify_section {
  field<std::uint64_t> records_checked, mismatches;
  field<std::vector<std::string>> problems;
  field<std::string> content_digest;
  nlohmann::json extra = nlohmann::json::object();
};

struct accelerator_row {
  field<std::uint64_t> id;
  field<std::string> device;
  nlohmann::json extra = nlohmann::json::object();
};

struct bench_report {
  std::string schema = "dlsize.report/1";
  std::string kind = "bench";
  field<std::vector<std::string>> command_line;
  field<nlohmann::json> config; // the effective options, keyed by long option name
  field<run_status> status;
  field<std::string> reason, run_id, created_at;
  field<double> created_unix_s; // when the report was made, to the ms (absent before it existed)
  field<std::string> label;     // --label: the backend's name (absent: none given)
  field<std::vector<std::string>> warnings;
  std::optional<workload_section> workload;
  std::optional<dataset_section> dataset;
  std::optional<topology_section> topology;
  std::optional<summary_section> summary;
  std::optional<io_section> io;
  std::optional<storage_section> storage;
  std::optional<cache_emulation_section> cache_emulation;
  std::optional<verify_section> verify;
  std::optional<std::vector<accelerator_row>> accelerators;
  nlohmann::json extra = nlohmann::json::object(); // every other top-level key

  nlohmann::json to_json() const;
  // Throws usage_error when j is not an object of schema dlsize.report/1, or a field has
  // another type or range than the field lists say (check_report_fields); source (a file)
  // starts the message.
  static bench_report from_json(const nlohmann::json& j, const std::string& source = "report");
  // The typed fields of any dlsize report, a bench report or not (a checkpoint report has its
  // identity, label and status), checked as check_report_fields checks them.
  static bench_report fields_of(const nlohmann::json& j, const std::string& source);

  bool complete() const { return status.value_or(run_status::incomplete) == run_status::complete; }
  // The status as the report says it ("?" when absent).
  std::string status_text() const;
  // An effective option's value (config is keyed by long option name); null when not there.
  nlohmann::json option(const std::string& name) const;
  // The report's figures as numbers for the analyses: the value, or NaN when absent or null.
  static double number(const field<double>& f);
  static double number(const field<std::uint64_t>& f);
};

// A section, or an empty one (every field absent) when the report has none: readers then see
// NaN or their fallback instead of testing each level.
template <class S> const S& or_empty(const std::optional<S>& s) {
  static const S empty;
  return s ? *s : empty;
}

// The field lists' checks (what from_json checks) for any JSON document read as a report, a
// bench report or not: throws usage_error "FILE: /summary: is an array. valid: an object", or
// "FILE: /summary/read_bytes_per_s: -5 is out of range. valid: a number >= 0", for the first
// field of another type or range; absent and null fields pass (older reports leave them out,
// and null is "not measured", for a figure or a whole section alike).
void check_report_fields(const nlohmann::json& j, const std::string& source);

// A latency's count, mean and percentiles in seconds (what percentiles_json writes).
latency_summary latency_summary_of(const histogram& h);
// The same with the histogram itself.
latency_summary latency_with_histogram(const histogram& h);
nlohmann::json to_json(const latency_summary& l);
// The sections as the report holds them, for the code that still assembles a report's JSON.
nlohmann::json to_json(const dataset_section& s);
nlohmann::json to_json(const io_section& s);
nlohmann::json to_json(const storage_section& s);
nlohmann::json to_json(const summary_section& s);
nlohmann::json to_json(const cache_emulation_section& s);
nlohmann::json to_json(const verify_section& s);
nlohmann::json to_json(const limit_section& s);
// A section a run may write as null: null when it has no value.
nlohmann::json to_json(const field<warm_epochs_section>& s);
// The storage.s3 block as the report holds it.
nlohmann::json to_json(const s3_section& s);
// Reads a storage.s3 block; throws usage_error naming the field (source starts the message).
s3_section s3_section_from_json(const nlohmann::json& j, const std::string& source = "report");

// The numbers under key in the report's timeseries points, in order (points without one, or
// with null, left out).
std::vector<double> timeseries_numbers(const bench_report& r, const char* key);

// Whether j is a report written by dlsize bench (schema dlsize.report/1, kind bench).
bool is_bench_report(const nlohmann::json& j);

} // namespace dlsize::report
