#include "report/bench_report.hpp"

#include <cmath>
#include <type_traits>

#include <fmt/format.h>

#include "core/error.hpp"
#include "report/json_fields.hpp"
#include "report/latency_keys.hpp"

namespace dlsize::report {
// The field lists of each section (report/json_fields.hpp reads and writes them).
namespace json_fields {

// One list of keys per section, for reading and writing alike.
void visit(section_of<latency_summary> auto& s, auto& op) {
  latency_keys(s, op);
  op("histogram", s.histogram);
}

void visit(section_of<cpu_summary> auto& s, auto& op) {
  op("process", s.process);
  op("host", s.host);
  op("process_user_s", s.process_user_s);
  op("process_system_s", s.process_system_s);
  op("budget_cores", s.budget_cores, bound::nonneg);
  op("budget_share", s.budget_share, bound::nonneg);
}

void visit(section_of<accelerator_section> auto& s, auto& op) {
  op("type", s.type);
  op("origin", s.origin);
  op("source", s.source);
  op("batch_size", s.batch_size);
  op("compute_time_s", s.compute_time_s);
  op("compute_time_stdev_s", s.compute_time_stdev_s);
}

void visit(section_of<workload_section> auto& s, auto& op) {
  op("name", s.name);
  op("origin", s.origin);
  op("layout", s.layout);
  op("format", s.format);
  op("au_threshold", s.au_threshold, bound::share);
  op("epochs", s.epochs);
  op("epochs_source", s.epochs_source);
  op("mean_sample_bytes", s.mean_sample_bytes, bound::nonneg);
  op.section("accelerator", s.accelerator);
  op("model", s.model);
}

void visit(section_of<index_changes> auto& s, auto& op) {
  op("count", s.count);
  op("files", s.files);
  op("while_reading", s.while_reading);
}

void visit(section_of<index_origin> auto& s, auto& op) {
  op("path", s.path);
  op("digest", s.digest);
  op("created_at", s.created_at);
  op("on_change", s.on_change);
  op("files_indexed", s.files_indexed);
  op("files_read", s.files_read);
  op.section("changed", s.changed);
  op("skipped_when_indexed", s.skipped_when_indexed);
  op("formats", s.formats);
  op("sample_bytes", s.sample_bytes);
}

void visit(section_of<dataset_section> auto& s, auto& op) {
  op("path", s.path);
  op("fs_type", s.fs_type);
  op("mount_point", s.mount_point);
  op("device", s.device);
  op("dataset_id", s.dataset_id);
  op("bytes", s.bytes);
  op("files", s.files);
  op("samples", s.samples);
  op("records_per_file", s.records_per_file);
  op("client_ram_bytes", s.client_ram_bytes);
  op("bytes_over_ram", s.bytes_over_ram, bound::nonneg);
  op.section("index", s.index);
}

void visit(section_of<topology_section> auto& s, auto& op) {
  op("ranks", s.ranks);
  op("nodes", s.nodes);
  op("accelerators", s.accelerators);
  op("accelerators_per_rank", s.accelerators_per_rank);
  op("ranks_per_node", s.ranks_per_node);
  op("accelerators_per_node", s.accelerators_per_node);
  op("accelerator_kind", s.accelerator_kind);
  op("communicator", s.communicator);
  op("sync_steps", s.sync_steps);
  op("epoch_sync", s.epoch_sync);
  op("prefetch", s.prefetch);
  op("declared", s.declared);
  op.section("allreduce", s.allreduce);
}

void visit(section_of<declared_topology> auto& s, auto& op) {
  op("nodes", s.nodes);
  op("accelerators_per_node", s.accelerators_per_node);
  op("hosts", s.hosts);
}

void visit(section_of<limit_figures_section> auto& s, auto& op) {
  op("accelerator_utilization", s.accelerator_utilization);
  op("busiest_reader_cpu_share", s.busiest_reader_cpu_share);
  op("host_cpu_utilization", s.host_cpu_utilization);
  op("queue_full_share", s.queue_full_share);
  op("completion_wait_share", s.completion_wait_share);
  op("mean_in_flight", s.mean_in_flight);
  op("queue_depth", s.queue_depth);
  op("readers", s.readers);
  op("device_busy", s.device_busy);
  op("max_read_rate", s.max_read_rate);
  op("read_bytes_per_s", s.read_bytes_per_s);
  op("process_cpu_budget_share", s.process_cpu_budget_share);
  op("cpu_budget_cores", s.cpu_budget_cores);
  op("client_network_share", s.client_network_share);
  op("storage_network_share", s.storage_network_share);
}

void visit(section_of<limit_sign_section> auto& s, auto& op) {
  op("side", s.side);
  op("name", s.name);
  op("value", s.value);
  op("bound", s.bound);
  op("text", s.text);
}

void visit(section_of<limit_section> auto& s, auto& op) {
  op("verdict", s.verdict);
  op("synthetic", s.synthetic);
  op("reason", s.reason);
  op("advice", s.advice);
  op.section("figures", s.figures);
  op.rows("signs", s.signs);
}

void visit(section_of<summary_section> auto& s, auto& op) {
  op("wall_s", s.wall_s, bound::nonneg);
  op("samples_per_s", s.samples_per_s, bound::nonneg);
  op("samples_per_s_per_accelerator", s.samples_per_s_per_accelerator, bound::nonneg);
  op("read_bytes_per_s", s.read_bytes_per_s, bound::nonneg);
  op("files_per_s", s.files_per_s);
  op("read_bytes", s.read_bytes);
  op("samples", s.samples);
  op("requests", s.requests);
  op("accelerator_utilization", s.accelerator_utilization, bound::share);
  op("accelerator_utilization_min", s.accelerator_utilization_min, bound::share);
  op("au_threshold", s.au_threshold, bound::share);
  op("accelerator_utilization_epoch_mean", s.accelerator_utilization_epoch_mean, bound::share);
  op("accelerator_utilization_excluding_checkpoints",
     s.accelerator_utilization_excluding_checkpoints, bound::share);
  op("au_pass", s.au_pass);
  op("demand_bytes_per_s_per_accelerator", s.demand_bytes_per_s_per_accelerator, bound::nonneg);
  op("demand_bytes_per_s", s.demand_bytes_per_s, bound::nonneg);
  op("epochs", s.epochs);
  op("epochs_completed", s.epochs_completed);
  op("steps_per_epoch", s.steps_per_epoch);
  op("steps", s.steps);
  op("steps_total", s.steps_total);
  op("storage_au", s.storage_au, bound::share);
  op("data_wait_s", s.data_wait_s, bound::nonneg);
  op("sync_wait_s", s.sync_wait_s, bound::nonneg);
  op("comm_s", s.comm_s, bound::nonneg);
  op("comm_time_fraction", s.comm_time_fraction, bound::share);
  op("limited_by", s.limited_by);
  op.section("data_wait", s.data_wait);
  op.section("cpu_utilization", s.cpu_utilization);
  op("cpu_s_per_gib", s.cpu_s_per_gib);
  op("cpu_s_per_1000_samples", s.cpu_s_per_1000_samples);
}

void visit(section_of<io_section> auto& s, auto& op) {
  op("engine", s.engine);
  op("engine_requested", s.engine_requested);
  op("cache_mode", s.cache_mode);
  op("uncached_method", s.uncached_method);
  op("queue_depth", s.queue_depth);
  op("request_size", s.request_size);
  op("readers", s.readers);
  op("open", s.open);
  op("read_unit", s.read_unit);
  op("max_read_rate", s.max_read_rate, bound::nonneg);
  op("requests", s.requests);
  op("read_bytes", s.read_bytes);
  op("opens", s.opens);
  op("short_reads", s.short_reads);
  op("retries", s.retries);
  op("errors", s.errors);
  op("first_error", s.first_error);
  op.section("latency", s.latency);
  op("histogram", s.histogram);
  op.section("sample_latency", s.sample_latency);
  op.section("open_latency", s.open_latency);
  op.section("reader_time", s.reader_time);
  op.section("setup", s.setup);
}

void visit(section_of<io_setup_section> auto& s, auto& op) {
  op("stat_s", s.stat_s, bound::nonneg);
  op("open_s", s.open_s, bound::nonneg);
  op("counted_s", s.counted_s, bound::nonneg);
}

void visit(section_of<reader_time_section> auto& s, auto& op) {
  op("cpu_s", s.cpu_s);
  op("run_s", s.run_s);
  op("cpu_share", s.cpu_share);
  op("busiest_cpu_share", s.busiest_cpu_share);
  op("queue_full_share", s.queue_full_share);
  op("completion_wait_share", s.completion_wait_share);
  op("mean_in_flight", s.mean_in_flight);
}

void visit(section_of<warm_epochs_section> auto& s, auto& op) {
  op("from_s", s.from_s);
  op("read_bytes", s.read_bytes);
  op("storage_read_bytes", s.storage_read_bytes);
  op("hit_ratio", s.hit_ratio);
  op("storage_per_read_byte", s.storage_per_read_byte, bound::nonneg);
}

void visit(section_of<s3_requests_section> auto& s, auto& op) {
  op("requests", s.requests);
  op("retries", s.retries);
  op("errors", s.errors);
  op("retries_by_cause", s.retries_by_cause);
  op("errors_by_cause", s.errors_by_cause);
}

void visit(section_of<s3_section> auto& s, auto& op) {
  op("endpoints", s.endpoints);
  op("bucket", s.bucket);
  op("prefix", s.prefix);
  op("region", s.region);
  op("addressing", s.addressing);
  op("server", s.server);
  op("requests", s.requests);
  op("bytes", s.bytes);
  op("retries", s.retries);
  op("errors", s.errors);
  op("connections_opened", s.connections_opened);
  op("retries_by_cause", s.retries_by_cause);
  op("errors_by_cause", s.errors_by_cause);
  op.section("first_byte", s.first_byte);
  op.section("latency", s.latency);
  op("max_retries", s.max_retries);
  op("retry_budget_s", s.retry_budget_s);
  op.section("other_requests", s.other_requests);
  op("settings_from", s.settings_from);
}

void visit(section_of<telemetry::os_facts> auto& s, auto& op) {
  op("name", s.name);
  op("version_id", s.version_id);
  op("pretty_name", s.pretty_name);
}

void visit(section_of<telemetry::nfs_facts> auto& s, auto& op) {
  op("vers", s.vers);
  op("proto", s.proto);
  op("nconnect", s.nconnect);
  op("rsize", s.rsize);
  op("wsize", s.wsize);
}

void visit(section_of<telemetry::mount_facts> auto& s, auto& op) {
  op("mount_point", s.mount_point);
  op("source", s.source);
  op("fs_type", s.fs_type);
  op("options", s.options);
  op("super_options", s.super_options);
  op("dev", s.dev);
  op.section("nfs", s.nfs);
}

void visit(section_of<telemetry::block_device_facts> auto& s, auto& op) {
  op("name", s.name);
  op("dev", s.dev);
  op("partition", s.partition);
  op("via", s.via);
  op("model", s.model);
  op("vendor", s.vendor);
  op("transport", s.transport);
  op("rotational", s.rotational);
  op("size_bytes", s.size_bytes);
  op("scheduler", s.scheduler);
  op("read_ahead_kb", s.read_ahead_kb);
  op("max_sectors_kb", s.max_sectors_kb);
  op("backing_file", s.backing_file);
}

void visit(section_of<telemetry::io_limit> auto& s, auto& op) {
  op("device", s.device);
  op("rbps", s.rbps);
  op("wbps", s.wbps);
  op("riops", s.riops);
  op("wiops", s.wiops);
}

void visit(section_of<telemetry::cgroup_facts> auto& s, auto& op) {
  op("version", s.version);
  op("path", s.path);
  op("memory_max_bytes", s.memory_max_bytes);
  op("cpu_max_cores", s.cpu_max_cores, bound::nonneg);
  op.rows("io_max", s.io_max);
}

void visit(section_of<telemetry::numa_node> auto& s, auto& op) {
  op("node", s.node);
  op("cpus", s.cpus);
  op("memory_bytes", s.memory_bytes);
}

void visit(section_of<telemetry::nic_facts> auto& s, auto& op) {
  op("name", s.name);
  op("state", s.state);
  op("speed_bits_per_s", s.speed_bits_per_s);
  op("mtu", s.mtu);
}

void visit(section_of<telemetry::gpu_device> auto& s, auto& op) {
  op("index", s.index);
  op("name", s.name);
  op("pci_bus_id", s.pci_bus_id);
  op("memory_bytes", s.memory_bytes);
}

void visit(section_of<telemetry::gpu_sample> auto& s, auto& op) {
  op("index", s.index);
  op("utilization", s.utilization);
  op("memory_utilization", s.memory_utilization);
  op("memory_used_bytes", s.memory_used_bytes);
  op("pcie_rx_bytes_per_s", s.pcie_rx_bytes_per_s);
  op("pcie_tx_bytes_per_s", s.pcie_tx_bytes_per_s);
  op("power_w", s.power_w);
  op("energy_j", s.energy_j);
}

void visit(section_of<telemetry::gpu_summary> auto& s, auto& op) {
  op("index", s.index);
  op("utilization_mean", s.utilization_mean);
  op("memory_used_max_bytes", s.memory_used_max_bytes);
  op("pcie_rx_bytes_per_s_mean", s.pcie_rx_bytes_per_s_mean);
  op("power_w_mean", s.power_w_mean);
  op("energy_j", s.energy_j);
}

void visit(section_of<telemetry::nvml_status> auto& s, auto& op) {
  op("available", s.available);
  op("reason", s.reason);
}

void visit(section_of<telemetry::host_facts> auto& s, auto& op) {
  op("hostname", s.hostname);
  op("cpus", s.cpus);
  op("cpu_model", s.cpu_model);
  op("ram_bytes", s.ram_bytes);
  op("kernel", s.kernel);
  op.rows("nics", s.nics);
  op.rows("gpus", s.gpus);
  op.section("nvml", s.nvml);
  auto& p = s.provenance;
  op.section("os", p.os);
  op.section("mount", p.mount);
  op.section("device", p.device);
  op.rows("numa_nodes", p.numa_nodes);
  op("mpi_library", p.mpi_library);
  op("environment", p.environment);
  op.section("cgroup", p.cgroup);
}

void visit(section_of<system_section> auto& s, auto& op) {
  op.rows("hosts", s.hosts);
  op.section("os", s.os);
}

void visit(section_of<allreduce_section> auto& s, auto& op) {
  op("algorithm", s.algorithm);
  op("nodes", s.nodes);
  op("accelerators_per_node", s.accelerators_per_node);
  op("exposed_s", s.exposed_s);
}

void visit(section_of<telemetry::memory_figures> auto& s, auto& op) {
  op("page_cache_bytes", s.page_cache_bytes);
  op("available_bytes", s.available_bytes);
  op("free_bytes", s.free_bytes);
}

void visit(section_of<storage_section> auto& s, auto& op) {
  op("counter", s.counter);
  op("read_bytes", s.read_bytes);
  op("hit_ratio", s.hit_ratio, bound::share);
  op("read_bytes_per_s", s.read_bytes_per_s, bound::nonneg);
  op.section("memory_start", s.memory_start);
  op.section("memory_end", s.memory_end);
  op.section("warm_epochs", s.warm_epochs);
  op.section("s3", s.s3);
  op.section("mount", s.mount);
  op.section("device", s.device);
  op.rows("io_limits", s.io_limits);
  op("network_bits_per_s", s.network_bits_per_s, bound::nonneg);
}

void visit(section_of<cache_cgroup_section> auto& s, auto& op) {
  op("version", s.version);
  op("path", s.path);
  op("dir", s.dir);
  op("removed", s.removed);
  op("ranks", s.ranks);
}

void visit(section_of<eviction_section> auto& s, auto& op) {
  op("files", s.files);
  op("bytes", s.bytes);
  op("resident_bytes_before", s.resident_bytes_before);
  op("resident_bytes_after", s.resident_bytes_after);
}

void visit(section_of<cache_emulation_section> auto& s, auto& op) {
  op("client_ram_bytes", s.client_ram_bytes);
  op.section("cgroup", s.cgroup);
  op("process_rss_bytes_start", s.process_rss_bytes_start);
  op("footprint_bytes_start", s.footprint_bytes_start);
  op("footprint_bytes_peak", s.footprint_bytes_peak);
  op("limit_bytes_start", s.limit_bytes_start);
  op("limit_bytes_peak", s.limit_bytes_peak);
  op("limit_adjustments", s.limit_adjustments);
  op("limit_adjustments_refused", s.limit_adjustments_refused);
  op("page_cache_bytes_peak", s.page_cache_bytes_peak);
  op.section("evicted", s.evicted);
}

void visit(section_of<verify_section> auto& s, auto& op) {
  op("records_checked", s.records_checked);
  op("mismatches", s.mismatches);
  op("problems", s.problems);
  op("content_digest", s.content_digest);
  op("problems", s.problems);
}

void visit(section_of<accelerator_row> auto& s, auto& op) {
  op("id", s.id);
  op("rank", s.rank);
  op("host", s.host);
  op("device", s.device);
  op("steps", s.steps);
  op("measured_steps", s.measured_steps);
  op("samples", s.samples);
  op("read_bytes", s.read_bytes);
  op("measured_samples", s.measured_samples);
  op("measured_read_bytes", s.measured_read_bytes);
  op("samples_per_s", s.samples_per_s);
  op("utilization", s.utilization);
  op("compute_s", s.compute_s);
  op("window_s", s.window_s);
  op("data_wait_s", s.data_wait_s);
  op("sync_wait_s", s.sync_wait_s);
  op("comm_s", s.comm_s);
  op("storage_au", s.storage_au);
  op("first_step_wait_s", s.first_step_wait_s);
  op.section("data_wait", s.data_wait);
  op("sample_digest", s.sample_digest);
  op("gpu", s.gpu);
}

void visit(section_of<rank_row> auto& s, auto& op) {
  op("rank", s.rank);
  op("host", s.host);
  op("node", s.node);
  op("local_rank", s.local_rank);
  op("accelerators", s.accelerators);
  op("samples", s.samples);
  op("read_bytes", s.read_bytes);
  op("samples_per_s", s.samples_per_s);
  op("read_bytes_per_s", s.read_bytes_per_s);
  op("accelerator_utilization", s.accelerator_utilization);
  op("data_wait_s", s.data_wait_s);
  op("sync_wait_s", s.sync_wait_s);
  op("comm_s", s.comm_s);
  op("cpu_utilization", s.cpu_utilization);
  op("cpu_s", s.cpu_s);
  op("requests", s.requests);
  op.section("read_latency", s.read_latency);
  op("failed_samples", s.failed_samples);
  op("wall_s", s.wall_s);
  op("status", s.status);
  op("reason", s.reason);
}

void visit(section_of<host_nic_row> auto& s, auto& op) {
  op("name", s.name);
  op("rx_bytes", s.rx_bytes);
  op("tx_bytes", s.tx_bytes);
  op("rx_bytes_per_s", s.rx_bytes_per_s);
  op("tx_bytes_per_s", s.tx_bytes_per_s);
  op("speed_bits_per_s", s.speed_bits_per_s);
  op("declared_bits_per_s", s.declared_bits_per_s);
  op("utilization", s.utilization);
}

void visit(section_of<host_row> auto& s, auto& op) {
  op("host", s.host);
  op("node", s.node);
  op("ranks", s.ranks);
  op("accelerators", s.accelerators);
  op("samples", s.samples);
  op("samples_per_s", s.samples_per_s);
  op("read_bytes", s.read_bytes);
  op("read_bytes_per_s", s.read_bytes_per_s);
  op("accelerator_utilization", s.accelerator_utilization);
  op("storage_read_bytes", s.storage_read_bytes);
  op("hit_ratio", s.hit_ratio);
  op("cpu_host_utilization", s.cpu_host_utilization);
  op.section("memory_end", s.memory_end);
  op.rows("nics", s.nics);
}

void visit(section_of<epoch_row> auto& s, auto& op) {
  op("epoch", s.epoch);
  op("steps_total", s.steps_total);
  op("samples", s.samples);
  op("read_bytes", s.read_bytes);
  op("compute_s", s.compute_s);
  op("data_wait_s", s.data_wait_s);
  op("start_s", s.start_s);
  op("end_s", s.end_s);
  op("wall_s", s.wall_s);
  op("accelerator_utilization", s.accelerator_utilization);
  op("samples_per_s", s.samples_per_s);
  op("read_bytes_per_s", s.read_bytes_per_s);
  op("dlio_accelerator_utilization", s.dlio_accelerator_utilization);
  op("last_epoch", s.last_epoch);
  op("epochs_in_row", s.epochs_in_row);
}

void visit(section_of<preprocessing_section> auto& s, auto& op) {
  op("enabled", s.enabled);
  op("cost_per_sample_s", s.cost_per_sample_s);
  op("samples", s.samples);
  op("bytes", s.bytes);
  op("cpu_s", s.cpu_s);
  op("extra_passes", s.extra_passes);
  op("digest", s.digest);
}

void visit(section_of<phases_section> auto& s, auto& op) {
  op("startup_s", s.startup_s);
  op("run_s", s.run_s);
  op("gather_s", s.gather_s);
}

void visit(section_of<checkpoint_interval_choice> auto& s, auto& op) {
  op("mttf_s", s.mttf_s, bound::nonneg);
  op("mttf_source", s.mttf_source);
  op("accelerators", s.accelerators);
  op("system_mttf_s", s.system_mttf_s, bound::nonneg);
  op("checkpoint_s", s.checkpoint_s, bound::nonneg);
  op("young_s", s.young_s, bound::nonneg);
  op("daly_s", s.daly_s, bound::nonneg);
  op("keeps_up", s.keeps_up);
  op("interval_s", s.interval_s, bound::nonneg);
  op("step_s", s.step_s, bound::nonneg);
  op("every_steps", s.every_steps);
  op("reason", s.reason);
}

void visit(section_of<checkpoints_section> auto& s, auto& op) {
  op("every", s.every);
  op("every_steps", s.every_steps);
  op("dir", s.dir);
  op("scale", s.scale);
  op("count", s.count);
  op("bytes_per_checkpoint", s.bytes_per_checkpoint);
  op("bytes_per_rank", s.bytes_per_rank);
  op("bytes", s.bytes);
  op("seconds", s.seconds);
  op("seconds_per_checkpoint", s.seconds_per_checkpoint);
  op("mean_seconds", s.mean_seconds);
  op("write_bytes_per_s", s.write_bytes_per_s);
  op("au_lost_to_checkpoints", s.au_lost_to_checkpoints);
  op("au_lost_other", s.au_lost_other);
  op("accelerator_utilization_excluding_checkpoints",
     s.accelerator_utilization_excluding_checkpoints);
  op.section("interval_choice", s.interval_choice);
}

void visit(section_of<timeseries_point> auto& s, auto& op) {
  op("t_s", s.t_s);
  op("read_bytes_per_s", s.read_bytes_per_s);
  op("samples_per_s", s.samples_per_s);
  op("accelerator_utilization", s.accelerator_utilization);
  op("cpu_process", s.cpu_process);
  op("cpu_host", s.cpu_host);
  op("storage_read_bytes_per_s", s.storage_read_bytes_per_s);
  op("device_busy", s.device_busy);
  op("page_cache_bytes", s.page_cache_bytes);
  op("available_bytes", s.available_bytes);
  op.rows("gpus", s.gpus);
}

void visit(section_of<tool_features> auto& s, auto& op) {
  op("io_uring", s.io_uring);
  op("liburing", s.liburing);
  op("psync", s.psync);
  op("crc32c", s.crc32c);
  op("mpi", s.mpi);
  op("mpi_library", s.mpi_library);
  op("cuda", s.cuda);
}

void visit(section_of<tool_section> auto& s, auto& op) {
  op("name", s.name);
  op("version", s.version);
  op("commit", s.commit);
  op("build_type", s.build_type);
  op.section("features", s.features);
}

void visit(section_of<backend_section> auto& s, auto& op) {
  op("label", s.label);
  op("label_given", s.label_given);
  op("identity", s.identity);
}

void visit(section_of<fs_separation_section> auto& s, auto& op) {
  op("dataset", s.dataset);
  op("dataset_device", s.dataset_device);
  op("checkpoints", s.checkpoints);
  op("checkpoints_device", s.checkpoints_device);
  op("results", s.results);
  op("results_device", s.results_device);
  op("separate", s.separate);
  op("method", s.method);
}

void visit(section_of<workload_hash_section> auto& s, auto& op) {
  op("algorithm", s.algorithm);
  op("allowlist", s.allowlist);
  op("keys", s.keys);
  op("sha256", s.sha256);
}

void visit(section_of<validity_rule_row> auto& s, auto& op) {
  op("rule", s.rule);
  op("verdict", s.verdict);
  op("measured", s.measured);
  op("source", s.source);
  op("judged_by", s.judged_by);
}

void visit(section_of<validity_section> auto& s, auto& op) {
  op("rules_edition", s.rules_edition);
  op("verdict", s.verdict);
  op.rows("rules", s.rules);
}

void visit(section_of<progress_section> auto& s, auto& op) {
  op("elapsed_s", s.elapsed_s);
  op("read_bytes", s.read_bytes);
  op("samples", s.samples);
  op("read_bytes_per_s", s.read_bytes_per_s);
  op("samples_per_s", s.samples_per_s);
  op("updated_at", s.updated_at);
}

void visit(section_of<bench_report> auto& r, auto& op) {
  op.shape("schema", json_shape::string);
  op.shape("kind", json_shape::string);
  op("created_at", r.created_at);
  op("created_unix_s", r.created_unix_s, bound::nonneg);
  op("label", r.label);
  op("command_line", r.command_line);
  op("config", r.config);
  op("config_given", r.config_given);
  op("status", r.status);
  op("reason", r.reason);
  op("run_id", r.run_id);
  op("warnings", r.warnings);
  op.section("workload", r.workload);
  op.section("dataset", r.dataset);
  op.section("topology", r.topology);
  op.section("summary", r.summary);
  op.section("io", r.io);
  op.section("storage", r.storage);
  op.section("cache_emulation", r.cache_emulation);
  op.section("verify", r.verify);
  op.rows("accelerators", r.accelerators);
  op.rows("ranks", r.ranks);
  op.rows("hosts", r.hosts);
  op.rows("epochs", r.epochs);
  op.rows("timeseries", r.timeseries);
  op.section("preprocessing", r.preprocessing);
  op.section("phases", r.phases);
  op.section("checkpoints", r.checkpoints);
  op.section("system", r.system);
  op.section("tool", r.tool);
  op.section("backend", r.backend);
  op.section("fs_separation", r.fs_separation);
  op.section("workload_hash", r.workload_hash);
  op.section("mlperf_validity", r.mlperf_validity);
  op("partial", r.partial);
  op.section("progress", r.progress);
}

} // namespace json_fields

using json_fields::found_text;
using json_fields::key_path;
using json_fields::reader;
using json_fields::writer;
using json_fields::wrong_type;

latency_summary latency_summary_of(const histogram& h) {
  latency_summary l;
  l.count = h.count();
  l.mean_s = h.mean() * 1e-9;
  l.p50_s = h.quantile(0.5) * 1e-9;
  l.p90_s = h.quantile(0.9) * 1e-9;
  l.p99_s = h.quantile(0.99) * 1e-9;
  l.p999_s = h.quantile(0.999) * 1e-9;
  l.max_s = static_cast<double>(h.max()) * 1e-9;
  return l;
}

latency_summary latency_with_histogram(const histogram& h) {
  latency_summary l = latency_summary_of(h);
  l.histogram = h.to_json();
  return l;
}

nlohmann::json to_json(const latency_summary& l) {
  return writer::nested(l);
}

nlohmann::json to_json(const s3_section& s) {
  return writer::nested(s);
}

nlohmann::json to_json(const dataset_section& s) {
  return writer::nested(s);
}

nlohmann::json to_json(const io_section& s) {
  return writer::nested(s);
}

nlohmann::json to_json(const storage_section& s) {
  return writer::nested(s);
}

nlohmann::json to_json(const summary_section& s) {
  return writer::nested(s);
}

nlohmann::json to_json(const cache_emulation_section& s) {
  return writer::nested(s);
}

nlohmann::json to_json(const verify_section& s) {
  return writer::nested(s);
}

nlohmann::json to_json(const limit_section& s) {
  return writer::nested(s);
}

nlohmann::json to_json(const field<warm_epochs_section>& s) {
  return s.has_value() ? writer::nested(*s) : nlohmann::json(nullptr);
}

s3_section s3_section_from_json(const nlohmann::json& j, const std::string& source) {
  nlohmann::json holder = {{"s3", j}};
  reader r{holder, "/storage", source};
  std::optional<s3_section> s;
  r.section("s3", s);
  if (!s)
    wrong_type(source, "/storage/s3", j, "an object");
  return *s;
}

template <class S>
S section_from_json(const nlohmann::json& j, const std::string& pointer,
                    const std::string& source) {
  nlohmann::json v = j;
  const reader r{v, "", source};
  return r.nested<S>(v, pointer);
}

template fs_separation_section section_from_json(const nlohmann::json&, const std::string&,
                                                 const std::string&);
template allreduce_section section_from_json(const nlohmann::json&, const std::string&,
                                             const std::string&);
template system_section section_from_json(const nlohmann::json&, const std::string&,
                                          const std::string&);
template telemetry::host_facts section_from_json(const nlohmann::json&, const std::string&,
                                                 const std::string&);
template telemetry::memory_figures section_from_json(const nlohmann::json&, const std::string&,
                                                     const std::string&);

std::vector<timeseries_point> timeseries_from_json(const nlohmann::json& series) {
  nlohmann::json holder = nlohmann::json::object();
  holder.emplace("timeseries", series);
  reader r{holder, "", "timeseries"};
  std::optional<std::vector<timeseries_point>> rows;
  r.rows("timeseries", rows);
  return rows.value_or(std::vector<timeseries_point>{});
}

nlohmann::json timeseries_to_json(const std::vector<timeseries_point>& series) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& p : series)
    a.push_back(writer::nested(p));
  return a;
}

template <class S> nlohmann::json section_to_json(const S& s) {
  return writer::nested(s);
}

template nlohmann::json section_to_json(const fs_separation_section&);
template nlohmann::json section_to_json(const workload_hash_section&);
template nlohmann::json section_to_json(const system_section&);
template nlohmann::json section_to_json(const allreduce_section&);
template nlohmann::json section_to_json(const backend_section&);
template nlohmann::json section_to_json(const telemetry::io_limit&);
template nlohmann::json section_to_json(const telemetry::host_facts&);
template nlohmann::json section_to_json(const telemetry::gpu_summary&);
template nlohmann::json section_to_json(const telemetry::memory_figures&);
template nlohmann::json section_to_json(const telemetry::os_facts&);
template nlohmann::json section_to_json(const telemetry::mount_facts&);
template nlohmann::json section_to_json(const telemetry::block_device_facts&);
template nlohmann::json section_to_json(const telemetry::cgroup_facts&);

nlohmann::json to_json(const tool_section& t) {
  nlohmann::json j = nlohmann::json::object();
  writer w{j};
  w.section("tool", std::optional<tool_section>(t));
  return j.at("tool");
}

std::string top_level_text(const nlohmann::json& j, const char* key) {
  if (!j.is_object())
    return "";
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool is_bench_report(const nlohmann::json& j) {
  return top_level_text(j, "schema") == kReportSchema && top_level_text(j, "kind") == "bench";
}

std::optional<replay_source> replay_source_of(const nlohmann::json& j) {
  if (top_level_text(j, "schema") != kReportSchema || !j.contains("config"))
    return std::nullopt;
  replay_source r;
  r.config = j.at("config");
  const auto& ranks = j.value("/topology/ranks"_json_pointer, nlohmann::json());
  r.ranks = ranks.is_number_unsigned() ? ranks.get<std::uint64_t>() : 0;
  return r;
}

nlohmann::json bench_report::to_json() const {
  nlohmann::json j = extra.is_object() ? extra : nlohmann::json::object();
  j["schema"] = schema;
  j["kind"] = kind;
  writer w{j};
  visit(*this, w);
  return j;
}

bench_report bench_report::from_json(const nlohmann::json& j, const std::string& source) {
  if (!is_bench_report(j))
    throw usage_error(fmt::format(
        "{}: not a dlsize bench report. schema: {}; kind: {}; valid: schema {}, kind bench", source,
        j.is_object() ? j.value("schema", nlohmann::json("(none)")).dump() : "(not an object)",
        j.is_object() ? j.value("kind", nlohmann::json("(none)")).dump() : "(not an object)",
        kReportSchema));
  bench_report r;
  r.extra = j;
  r.extra.erase("schema");
  r.extra.erase("kind");
  reader rd{r.extra, "", source};
  visit(r, rd);
  return r;
}

bench_report bench_report::fields_of(const nlohmann::json& j, const std::string& source) {
  if (!j.is_object())
    throw usage_error(
        fmt::format("{}: /: is {}. valid: a dlsize report (a JSON object)", source, found_text(j)));
  bench_report r;
  r.extra = j;
  reader rd{r.extra, "", source};
  visit(r, rd);
  return r;
}

void check_report_fields(const nlohmann::json& j, const std::string& source) {
  (void)bench_report::fields_of(j, source);
}

std::string bench_report::status_text() const {
  if (!status.has_value())
    return "?";
  return to_string(*status);
}

nlohmann::json bench_report::option(const std::string& name) const {
  if (!config.has_value())
    return nullptr;
  const auto it = config.value->find(name);
  return it == config.value->end() ? nlohmann::json(nullptr) : *it;
}

double bench_report::number(const field<double>& f) {
  return f.has_value() ? *f : std::nan("");
}

double bench_report::number(const field<std::uint64_t>& f) {
  return f.has_value() ? static_cast<double>(*f) : std::nan("");
}

} // namespace dlsize::report
