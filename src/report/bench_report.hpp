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
// ("FILE: /summary/wall_s: ..."); the field lists in bench_report_json.cpp are the one place that
// says each field's type and range, for from_json and check_report_fields alike.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/field.hpp"
#include "core/histogram.hpp"
#include "report/index_origin.hpp"
#include "report/report_io.hpp"
#include "report/run_status.hpp"
#include "telemetry/host_facts.hpp"
#include "telemetry/storage_counters.hpp"

namespace dlsize::report {

// A report value a run may leave out or write as null (core/field.hpp).
using dlsize::field;

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
  // The cores the busiest rank may use (its CPU affinity, capped by its cgroup's CPU quota) and
  // that rank's CPU ÷ them; null in reports made before they were measured.
  field<double> budget_cores, budget_share;
  nlohmann::json extra = nlohmann::json::object();
};

struct accelerator_section {
  field<std::string> type, origin, source;
  field<std::uint64_t> batch_size;
  field<double> compute_time_s, compute_time_stdev_s; // a real GPU's compute time: measured
  nlohmann::json extra = nlohmann::json::object();
};

struct workload_section {
  field<std::string> name, origin, layout, format, epochs_source;
  field<std::uint64_t> epochs; // what the workload trains; null: the profile names none
  field<double> mean_sample_bytes, au_threshold;
  std::optional<accelerator_section> accelerator; // absent: a storage-only run
  field<nlohmann::json> model;                    // the profile's model summary, as written
  nlohmann::json extra = nlohmann::json::object();
};

struct dataset_section {
  field<std::string> path, fs_type, mount_point, device, dataset_id;
  field<std::uint64_t> bytes, files, samples, records_per_file, client_ram_bytes;
  field<double> bytes_over_ram;
  field<index_origin> index; // the index a listed dataset came from, and its changes
  nlohmann::json extra = nlohmann::json::object();
};

// Nodes declared on one host (--ranks-per-node): the layout the run stands for.
struct declared_topology {
  field<std::uint64_t> nodes, accelerators_per_node, hosts;
  nlohmann::json extra = nlohmann::json::object();
};

// The modelled allreduce (config/allreduce_config.hpp writes the whole block and reads it back
// for size): the fields the terminal summary shows are typed, every other one is in extra.
struct allreduce_section {
  field<std::string> algorithm;
  field<std::uint64_t> nodes, accelerators_per_node;
  field<double> exposed_s; // per step
  nlohmann::json extra = nlohmann::json::object();
};

struct topology_section {
  field<std::uint64_t> ranks, nodes, accelerators, accelerators_per_rank, ranks_per_node;
  field<std::uint64_t> accelerators_per_node; // null: ranks differ from node to node
  field<std::string> communicator, accelerator_kind;
  field<bool> sync_steps, epoch_sync;
  field<std::uint64_t> prefetch;
  field<declared_topology> declared;  // null: no nodes declared
  field<allreduce_section> allreduce; // the modelled allreduce, or null
  nlohmann::json extra = nlohmann::json::object();
};

// The figures behind summary.limited_by's verdict (null: not measured).
struct limit_figures_section {
  field<double> accelerator_utilization, busiest_reader_cpu_share, host_cpu_utilization;
  field<double> queue_full_share, completion_wait_share, mean_in_flight, queue_depth, readers;
  field<double> device_busy, max_read_rate, read_bytes_per_s;
  field<double> process_cpu_budget_share, cpu_budget_cores;
  // The busiest host NIC's share of its rate; the hosts' received bytes/s together ÷ the storage
  // side's declared network rate (null: not known).
  field<double> client_network_share, storage_network_share;
  nlohmann::json extra = nlohmann::json::object();
};

// One figure at its bound in summary.limited_by.signs (report/limit_verdict.hpp).
struct limit_sign_section {
  field<std::string> side, name, text; // side: "client" or "storage"
  field<double> value, bound;
  nlohmann::json extra = nlohmann::json::object();
};

// summary.limited_by: what held AU below 1 (report/limit_verdict.hpp).
struct limit_section {
  field<std::string> verdict, reason, advice; // advice null: nothing to change
  field<bool> synthetic;                      // the storage limit was --max-read-rate
  std::optional<limit_figures_section> figures;
  std::optional<std::vector<limit_sign_section>> signs; // absent in reports before signs
  nlohmann::json extra = nlohmann::json::object();
};

struct summary_section {
  field<double> wall_s, samples_per_s, samples_per_s_per_accelerator, read_bytes_per_s, files_per_s;
  field<std::uint64_t> read_bytes, samples, requests;
  field<double> accelerator_utilization, accelerator_utilization_min, au_threshold;
  field<double> accelerator_utilization_epoch_mean; // DLIO's per-epoch AU, averaged
  field<double> accelerator_utilization_excluding_checkpoints;
  field<bool> au_pass;
  field<double> demand_bytes_per_s_per_accelerator, demand_bytes_per_s;
  field<std::uint64_t> epochs, epochs_completed, steps_per_epoch, steps, steps_total;
  field<double> storage_au, data_wait_s, sync_wait_s, comm_s, comm_time_fraction;
  field<limit_section> limited_by; // the limit verdict (report/limit_verdict.hpp)
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

// What a run did before its timed phase (docs/metrics.md, "Before the timed phase"): dlsize's
// check of every file (a stat each), and with --open keep every file opened once; the opens are
// the data path's cost, so summary.read_bytes_per_s counts them (counted_s).
struct io_setup_section {
  field<double> stat_s;    // the stats (0: a bucket's objects are not stat'ed)
  field<double> open_s;    // --open keep's opens; null: files are opened per sample, timed
  field<double> counted_s; // the seconds summary.read_bytes_per_s adds to wall_s
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
  field<io_setup_section> setup;                 // absent in older reports
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

// The requests of a run besides its data's reads and writes: the manifest's GET, a checkpoint's
// claim, seal and deletes (the synchronous client's), with their retries by cause.
struct s3_requests_section {
  field<std::uint64_t> requests, retries, errors;
  field<nlohmann::json> retries_by_cause, errors_by_cause; // {cause: count}
  nlohmann::json extra = nlohmann::json::object();
};

// storage.s3, for a dataset in a bucket: which object store (endpoints, bucket, prefix, region,
// addressing, the server's Server header: part of the backend's identity), the retry policy,
// and what the reads asked of it (docs/report-schema.md).
struct s3_section {
  field<std::vector<std::string>> endpoints;
  field<std::string> bucket, prefix, region, addressing, server;
  field<std::uint64_t> requests, bytes, retries, errors, connections_opened;
  field<nlohmann::json> retries_by_cause, errors_by_cause; // {cause: count}
  std::optional<latency_summary> first_byte, latency;      // per request
  field<std::uint64_t> max_retries;                        // --s3-max-retries
  field<double> retry_budget_s;                            // --s3-retry-budget
  std::optional<s3_requests_section> other_requests;
  // {setting: where it came from}: an option, an AWS_* variable, "FILE [SECTION] KEY" of the
  // AWS CLI's files, or "default" (profile, endpoints, region, addressing, ca_bundle,
  // credentials); never a value.
  field<std::map<std::string, std::string>> settings_from;
  nlohmann::json extra = nlohmann::json::object();
};

struct storage_section {
  field<std::string> counter; // the storage counter's source; null: none fits the file system
  field<std::uint64_t> read_bytes;
  field<double> hit_ratio, read_bytes_per_s;
  field<telemetry::memory_figures> memory_start, memory_end; // rank 0's host's memory
  field<warm_epochs_section> warm_epochs; // absent or null: one epoch, no counter
  std::optional<s3_section> s3;           // absent: a dataset of files
  // Rank 0's host's facts of the dataset's place (report/provenance.hpp): its mount (null: a
  // bucket), block device (null: none) and the cgroup I/O limits on that device.
  field<telemetry::mount_facts> mount;
  field<telemetry::block_device_facts> device;
  std::optional<std::vector<telemetry::io_limit>> io_limits;
  // The storage side's network as declared (--nic-bandwidth storage:RATE): what limited_by
  // judges the hosts' traffic together by; absent or null: none declared.
  field<double> network_bits_per_s;
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
  field<std::string> content_digest;
  field<std::vector<std::string>> problems; // the first mismatches, as the verifier words them
  nlohmann::json extra = nlohmann::json::object();
};

// A list of run points whose memory figures are counts on one host and sums (numbers) over
// several: the value as the report holds it, a whole count or a number.
struct count_or_number {
  bool whole = true;
  std::uint64_t count = 0;
  double number = 0;
};

// One telemetry point of the run (rates over the interval before t_s).
struct timeseries_point {
  field<double> t_s, read_bytes_per_s, samples_per_s, accelerator_utilization;
  field<double> cpu_process, cpu_host, storage_read_bytes_per_s, device_busy;
  field<count_or_number> page_cache_bytes, available_bytes;
  std::optional<std::vector<telemetry::gpu_sample>> gpus; // NVML's samples, one per GPU
  nlohmann::json extra = nlohmann::json::object();
};

// The build that wrote the report.
struct tool_features {
  field<bool> io_uring, psync, mpi, cuda;
  field<std::string> liburing, crc32c, mpi_library;
  nlohmann::json extra = nlohmann::json::object();
};

struct tool_section {
  field<std::string> name, version, commit, build_type;
  std::optional<tool_features> features;
  nlohmann::json extra = nlohmann::json::object();
};

// The hosts' facts (telemetry/host_facts.hpp): one row per host, and rank 0's host's OS.
struct system_section {
  std::optional<std::vector<telemetry::host_facts>> hosts;
  field<telemetry::os_facts> os;
  nlohmann::json extra = nlohmann::json::object();
};

// The backend the run measured (report/backend_identity.hpp).
struct backend_section {
  field<std::string> label, identity;
  field<bool> label_given;
  nlohmann::json extra = nlohmann::json::object();
};

// v3.0 §3.4.2's record (report/fs_separation.hpp): the devices of the data and of the results.
struct fs_separation_section {
  field<std::string> dataset, dataset_device, checkpoints, checkpoints_device;
  field<std::string> results, results_device, method;
  field<bool> separate;
  nlohmann::json extra = nlohmann::json::object();
};

// The load's settings and their SHA-256 (report/workload_hash.hpp).
struct workload_hash_section {
  field<std::string> algorithm, allowlist, sha256;
  field<nlohmann::json> keys; // {JSON pointer without its leading /: the value or null}
  nlohmann::json extra = nlohmann::json::object();
};

// The MLPerf Storage verdict bench judged the run by (report/mlperf_validity.hpp).
struct validity_rule_row {
  field<std::string> rule, verdict, measured, source, judged_by;
  nlohmann::json extra = nlohmann::json::object();
};

struct validity_section {
  field<std::string> rules_edition, verdict;
  std::optional<std::vector<validity_rule_row>> rules;
  nlohmann::json extra = nlohmann::json::object();
};

// How far a running bench got (a partial report's progress).
struct progress_section {
  field<double> elapsed_s, read_bytes_per_s, samples_per_s;
  field<std::uint64_t> read_bytes, samples;
  field<std::string> updated_at;
  nlohmann::json extra = nlohmann::json::object();
};

// A training run's figures per accelerator (docs/metrics.md).
struct accelerator_row {
  field<std::uint64_t> id, rank;
  field<std::string> host, device, sample_digest;
  field<std::uint64_t> steps, measured_steps, samples, read_bytes, measured_samples;
  field<std::uint64_t> measured_read_bytes;
  field<double> samples_per_s, utilization, storage_au; // null: fewer than two steps
  field<double> compute_s, window_s, data_wait_s, sync_wait_s, comm_s, first_step_wait_s;
  std::optional<latency_summary> data_wait;
  field<nlohmann::json> gpu; // a real GPU's details as its driver gave them; null: emulated
  nlohmann::json extra = nlohmann::json::object();
};

// A training run's figures per rank; a rank whose results never came has rank, host, status.
struct rank_row {
  field<std::uint64_t> rank, node, local_rank;
  field<std::string> host, status, reason;
  field<std::vector<std::uint64_t>> accelerators; // the ids of its accelerators
  field<std::uint64_t> samples, read_bytes, requests, failed_samples;
  field<double> samples_per_s, read_bytes_per_s, accelerator_utilization;
  field<double> data_wait_s, sync_wait_s, comm_s, cpu_utilization, cpu_s, wall_s;
  std::optional<latency_summary> read_latency;
  nlohmann::json extra = nlohmann::json::object();
};

// One NIC of a host over the run (hosts[].nics[]): the bytes its counters moved between the
// run's start and end (every transfer of the host, not the run's alone), the rates they imply,
// and the rate it is judged by: declared (--nic-bandwidth) where one is, else the speed it
// reports.
struct host_nic_row {
  field<std::string> name;
  field<std::uint64_t> rx_bytes, tx_bytes;
  field<double> rx_bytes_per_s, tx_bytes_per_s;
  field<double> speed_bits_per_s;    // as the NIC reports it; null: unknown
  field<double> declared_bits_per_s; // --nic-bandwidth; null: none declared
  field<double> utilization;         // the busier direction ÷ that rate; null: no rate known
  nlohmann::json extra = nlohmann::json::object();
};

// A training run's figures per host (its ranks together).
struct host_row {
  field<std::string> host;
  field<std::uint64_t> node, accelerators, samples, read_bytes, storage_read_bytes;
  field<std::vector<std::uint64_t>> ranks;
  field<double> samples_per_s, read_bytes_per_s, accelerator_utilization, hit_ratio;
  field<double> cpu_host_utilization;
  field<telemetry::memory_figures> memory_end;   // the host's memory figures at the end
  std::optional<std::vector<host_nic_row>> nics; // what each NIC carried over the run
  nlohmann::json extra = nlohmann::json::object();
};

// A training run's figures per epoch; past the row cap one row holds the rest (last_epoch,
// epochs_in_row). The measured figures are null for an epoch without a measured window.
struct epoch_row {
  field<std::uint64_t> epoch, steps_total, samples, read_bytes, last_epoch, epochs_in_row;
  field<double> compute_s, data_wait_s, start_s, end_s, wall_s, accelerator_utilization;
  field<double> samples_per_s, read_bytes_per_s, dlio_accelerator_utilization;
  nlohmann::json extra = nlohmann::json::object();
};

// The per-sample CPU work a training run emulated (--preprocess).
struct preprocessing_section {
  field<bool> enabled;
  field<double> cost_per_sample_s, cpu_s;
  field<std::uint64_t> samples, bytes, extra_passes;
  field<std::string> digest;
  nlohmann::json extra = nlohmann::json::object();
};

// Where rank 0's time went: start-up (null when not known), the run, gathering the results.
struct phases_section {
  field<double> startup_s, run_s, gather_s;
  nlohmann::json extra = nlohmann::json::object();
};

// bench --checkpoint-every optimal: the interval the goodput model picked from the first
// checkpoint's pause, and why.
struct checkpoint_interval_choice {
  field<double> mttf_s, system_mttf_s, checkpoint_s, young_s, daly_s, interval_s, step_s;
  field<std::string> mttf_source, reason;
  field<std::uint64_t> accelerators, every_steps;
  field<bool> keeps_up;
  nlohmann::json extra = nlohmann::json::object();
};

// The checkpoints a training run wrote (bench --checkpoint-every) and the AU they cost.
struct checkpoints_section {
  field<std::string> every, dir;
  field<std::uint64_t> every_steps, count, bytes_per_checkpoint, bytes;
  field<std::vector<std::uint64_t>> bytes_per_rank;
  field<double> scale, seconds, mean_seconds, write_bytes_per_s;
  field<std::vector<double>> seconds_per_checkpoint;
  field<double> au_lost_to_checkpoints, au_lost_other;
  field<double> accelerator_utilization_excluding_checkpoints;
  std::optional<checkpoint_interval_choice> interval_choice; // --checkpoint-every optimal
  nlohmann::json extra = nlohmann::json::object();
};

struct bench_report {
  std::string schema = "dlsize.report/1";
  std::string kind = "bench";
  field<std::vector<std::string>> command_line;
  field<nlohmann::json> config;       // the effective options, keyed by long option name
  field<nlohmann::json> config_given; // the options given on the command line, by long name
  std::optional<tool_section> tool;
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
  std::optional<std::vector<epoch_row>> epochs;
  std::optional<std::vector<timeseries_point>> timeseries;
  field<system_section> system; // the hosts' facts (report_io.hpp's system_of)
  std::optional<backend_section> backend;
  field<fs_separation_section> fs_separation; // null: not recorded (a dataset in a bucket)
  std::optional<workload_hash_section> workload_hash;
  std::optional<validity_section> mlperf_validity;
  field<bool> partial; // a partial report, rewritten while the run goes on
  std::optional<progress_section> progress;
  std::optional<std::vector<rank_row>> ranks;
  std::optional<std::vector<host_row>> hosts;
  std::optional<preprocessing_section> preprocessing;
  std::optional<phases_section> phases;
  std::optional<checkpoints_section> checkpoints;
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

// A latency's count, mean and percentiles in seconds (a report's latency block).
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

// A section read from JSON another module writes (the allreduce block of config's to_json, what a
// rank sends rank 0): each typed key becomes its field, every other key stays in extra; throws
// usage_error as from_json. j lies at JSON pointer `pointer` of `source`, which messages name.
template <class S>
S section_from_json(const nlohmann::json& j, const std::string& pointer,
                    const std::string& source = "report");
// A run's timeseries (run_monitor's points) as the report holds it, and back.
std::vector<timeseries_point> timeseries_from_json(const nlohmann::json& series);
nlohmann::json timeseries_to_json(const std::vector<timeseries_point>& series);
// A section's JSON as the report holds it (its extra, the typed fields over it).
template <class S> nlohmann::json section_to_json(const S& s);
// The build's tool block as the report holds it.
nlohmann::json to_json(const tool_section& t);

// A system block of these hosts (report_io.cpp).
system_section system_of(std::vector<telemetry::host_facts> hosts);

// This build's tool block (report_io.cpp; tool_json() is its JSON).
tool_section tool_of_build();
// A bench report with what every report starts with (run id, creation time, tool, command line).
bench_report new_bench_report(const nlohmann::json& command_line);

// Whether j is a report written by dlsize bench (schema dlsize.report/1, kind bench).
bool is_bench_report(const nlohmann::json& j);

// What --replay takes from a report (schema dlsize.report/1 with a config block): the config as
// written, whatever its type (the run-config reader names a wrong one), and topology.ranks (0
// when it has none). None when j is not such a report.
struct replay_source {
  nlohmann::json config;
  std::uint64_t ranks = 0;
};
std::optional<replay_source> replay_source_of(const nlohmann::json& j);

} // namespace dlsize::report
