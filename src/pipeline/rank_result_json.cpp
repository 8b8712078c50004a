// The one place the JSON of a rank's results is written and read: the wire form each rank sends
// to rank 0 (pipeline/rank_result.hpp), and its readers' figures (reader_stats_json).
#include "pipeline/rank_result.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "report/run_status.hpp"

namespace dlsize::pipeline {

nlohmann::json reader_stats_json(const io::reader_stats& s) {
  return {{"requests", s.requests},
          {"bytes", s.bytes},
          {"jobs", s.jobs},
          {"opens", s.opens},
          {"short_reads", s.short_reads},
          {"retries", s.retries},
          {"errors", s.errors},
          {"first_error", s.first_error},
          {"read_latency", s.read_latency.to_json()},
          {"open_latency", s.open_latency.to_json()},
          {"cpu_ns", s.cpu_ns},
          {"run_ns", s.run_ns},
          {"completion_wait_ns", s.completion_wait_ns},
          {"queue_full_ns", s.queue_full_ns},
          {"in_flight_ns", s.in_flight_ns},
          {"busiest_cpu_share", s.busiest_cpu_share}};
}

io::reader_stats reader_stats_from_json(const nlohmann::json& j) {
  io::reader_stats s;
  s.requests = j.at("requests").get<std::uint64_t>();
  s.bytes = j.at("bytes").get<std::uint64_t>();
  s.jobs = j.at("jobs").get<std::uint64_t>();
  s.opens = j.at("opens").get<std::uint64_t>();
  s.short_reads = j.at("short_reads").get<std::uint64_t>();
  s.retries = j.at("retries").get<std::uint64_t>();
  s.errors = j.at("errors").get<std::uint64_t>();
  s.first_error = j.at("first_error").get<std::string>();
  s.read_latency = histogram::from_json(j.at("read_latency"));
  s.open_latency = histogram::from_json(j.at("open_latency"));
  s.cpu_ns = j.value("cpu_ns", std::uint64_t{0});
  s.run_ns = j.value("run_ns", std::uint64_t{0});
  s.completion_wait_ns = j.value("completion_wait_ns", std::uint64_t{0});
  s.queue_full_ns = j.value("queue_full_ns", std::uint64_t{0});
  s.in_flight_ns = j.value("in_flight_ns", 0.0);
  s.busiest_cpu_share = j.value("busiest_cpu_share", 0.0);
  return s;
}

nlohmann::json rank_result::to_json() const {
  nlohmann::json accels = nlohmann::json::array(), epochs_j = nlohmann::json::array();
  for (const auto& f : accelerators)
    accels.push_back(figures_json(f));
  for (const auto& e : epochs)
    epochs_j.push_back(e.to_json());
  nlohmann::json nics_j = nlohmann::json::array();
  for (const auto& n : nics)
    nics_j.push_back({n.name, n.rx_bytes, n.tx_bytes});
  return {{"rank", rank},
          {"host", host},
          {"node", node},
          {"local_rank", local_rank},
          {"first_accelerator", first_accelerator},
          {"devices", devices},
          {"accelerators", accels},
          {"details", details},
          {"sample_digests", sample_digests},
          {"epochs", epochs_j},
          {"steps_min", steps_min},
          {"steps_run", steps_run},
          {"samples", samples},
          {"io", reader_stats_json(io)},
          {"s3", s3 ? s3->to_json() : nlohmann::json(nullptr)},
          {"engine", engine},
          {"uncached_method", uncached_method},
          {"setup", {stat_s, open_s}},
          {"sample_latency", sample_latency.to_json()},
          {"failed_samples", failed_samples},
          {"first_error", first_error},
          {"preprocessing", {pre_samples, pre_bytes, pre_cpu_ns, pre_passes, pre_digest}},
          {"wall_s", wall_s},
          {"cpu",
           {cpu.wall_s, cpu.process_user_s, cpu.process_system_s, cpu.process_utilization,
            cpu.host_utilization, cpu.budget_cores}},
          {"storage",
           {{"counter", storage_counter}, {"source", storage_source}, {"bytes", storage_bytes}}},
          {"memory_start", report::section_to_json(memory_start)},
          {"memory_end", report::section_to_json(memory_end)},
          {"nics", nics_j},
          {"timeseries", report::timeseries_to_json(timeseries)},
          {"host_facts", report::section_to_json(host_facts)},
          {"warnings", warnings},
          {"fail_reason", fail_reason},
          {"stop_cause", report::to_string(stop.cause)},
          {"stop_signal", stop.signal},
          {"stop_detail", stop.detail}};
}

nlohmann::json gpu_details_json(nlohmann::json details,
                                const std::optional<telemetry::gpu_summary>& nvml) {
  details["nvml"] = nvml ? report::section_to_json(*nvml) : nlohmann::json(nullptr);
  return details;
}

nlohmann::json run_fingerprint_json(std::uint64_t dataset_id, std::uint64_t dataset_bytes,
                                    std::uint64_t dataset_files, const nlohmann::json& config) {
  return {{"dataset_id", fmt::format("{:016x}", dataset_id)},
          {"dataset_bytes", dataset_bytes},
          {"dataset_files", dataset_files},
          {"config", config}};
}

rank_result rank_result::from_json(const nlohmann::json& j) {
  try {
    rank_result r;
    r.rank = j.at("rank").get<int>();
    r.host = j.at("host").get<std::string>();
    r.node = j.at("node").get<int>();
    r.local_rank = j.at("local_rank").get<int>();
    r.first_accelerator = j.at("first_accelerator").get<std::uint64_t>();
    r.devices = j.at("devices").get<std::vector<std::string>>();
    for (const auto& a : j.at("accelerators"))
      r.accelerators.push_back(figures_from_json(a));
    for (const auto& d : j.at("details"))
      r.details.push_back(d);
    r.sample_digests = j.at("sample_digests").get<std::vector<std::uint64_t>>();
    for (const auto& e : j.at("epochs"))
      r.epochs.push_back(epoch_partial::from_json(e));
    r.steps_min = j.at("steps_min").get<std::uint64_t>();
    r.steps_run = j.at("steps_run").get<std::uint64_t>();
    r.samples = j.at("samples").get<std::uint64_t>();
    r.io = reader_stats_from_json(j.at("io"));
    if (!j.at("s3").is_null())
      r.s3 = s3::transfer_stats::from_json(j.at("s3"));
    r.engine = j.at("engine").get<std::string>();
    r.uncached_method = j.at("uncached_method").get<std::string>();
    r.stat_s = j.at("setup").at(0).get<double>();
    r.open_s = j.at("setup").at(1).get<double>();
    r.sample_latency = histogram::from_json(j.at("sample_latency"));
    r.failed_samples = j.at("failed_samples").get<std::uint64_t>();
    r.first_error = j.at("first_error").get<std::string>();
    const auto& p = j.at("preprocessing");
    r.pre_samples = p.at(0).get<std::uint64_t>();
    r.pre_bytes = p.at(1).get<std::uint64_t>();
    r.pre_cpu_ns = p.at(2).get<std::uint64_t>();
    r.pre_passes = p.at(3).get<std::uint64_t>();
    r.pre_digest = p.at(4).get<std::uint64_t>();
    r.wall_s = j.at("wall_s").get<double>();
    const auto& c = j.at("cpu");
    r.cpu.wall_s = c.at(0).get<double>();
    r.cpu.process_user_s = c.at(1).get<double>();
    r.cpu.process_system_s = c.at(2).get<double>();
    r.cpu.process_utilization = c.at(3).get<double>();
    r.cpu.host_utilization = c.at(4).get<double>();
    r.cpu.budget_cores = c.at(5).get<double>();
    r.cpu.budget_share = telemetry::budget_share_of(r.cpu.process_utilization, r.cpu.budget_cores);
    const auto& s = j.at("storage");
    r.storage_counter = s.at("counter").get<bool>();
    r.storage_source = s.at("source").get<std::string>();
    r.storage_bytes = s.at("bytes").get<std::uint64_t>();
    r.memory_start = report::section_from_json<telemetry::memory_figures>(
        j.at("memory_start"), "/memory_start", "a rank's result");
    r.memory_end = report::section_from_json<telemetry::memory_figures>(
        j.at("memory_end"), "/memory_end", "a rank's result");
    for (const auto& n : j.at("nics"))
      r.nics.push_back(
          {n.at(0).get<std::string>(), n.at(1).get<std::uint64_t>(), n.at(2).get<std::uint64_t>()});
    r.timeseries = report::timeseries_from_json(j.at("timeseries"));
    r.host_facts = report::section_from_json<telemetry::host_facts>(
        j.at("host_facts"), "/host_facts", "a rank's result");
    r.warnings = j.at("warnings");
    r.fail_reason = j.at("fail_reason").get<std::string>();
    r.stop.cause = report::stop_cause_from_string(j.at("stop_cause").get<std::string>());
    r.stop.signal = j.at("stop_signal").get<int>();
    r.stop.detail = j.at("stop_detail").get<std::string>();
    return r;
  } catch (const nlohmann::json::exception& e) {
    throw run_error(fmt::format("a rank's results could not be read: {}", e.what()));
  }
}

} // namespace dlsize::pipeline
