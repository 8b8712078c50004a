#include "analysis/plan.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "analysis/plan_row.hpp"
#include "analysis/read_amplification.hpp"
#include "core/error.hpp"

namespace dlsize::analysis {
namespace {

// Where the plan's dataset figures (bytes per sample, samples, layout) came from, in words.
std::string dataset_source(const plan_inputs& in) {
  if (!in.measured)
    return fmt::format("workload profile {}: its sample size mean and layout", in.workload.name);
  const auto& m = *in.measured;
  return fmt::format("index {} (digest {}) of {}: the measured sizes of its {} samples in {} "
                     "files; the profile {} gives the compute side only",
                     m.index, m.digest, m.dir, m.samples, m.files, in.workload.name);
}

nlohmann::json index_json(const measured_dataset& m, io::cache_mode cache) {
  const bool direct = cache == io::cache_mode::direct;
  return {{"path", m.index},
          {"dir", m.dir},
          {"digest", m.digest},
          {"files", m.files},
          {"samples", m.samples},
          {"file_bytes", m.file_bytes},
          {"sample_bytes", m.sample_bytes},
          {"samples_per_file", static_cast<double>(m.samples) / static_cast<double>(m.files)},
          {"sample_bytes_distribution", m.sample_distribution},
          {"request_size", m.request_size},
          {"read_bytes", direct ? m.direct_bytes : m.buffered_bytes},
          {"requests", direct ? m.direct_requests : m.buffered_requests}};
}

// What one client host running `per_host` accelerators must sustain: the reads at the AU
// threshold and at AU 100 %, the requests, and whether one NIC of each line rate carries it
// (the line rate × --nic-efficiency).
nlohmann::json per_host_json(std::uint64_t per_host, double reads_per_accel,
                             double needed_per_accel, double iops_per_accel,
                             double nic_efficiency) {
  const double n = static_cast<double>(per_host);
  const double needed = n * needed_per_accel;
  nlohmann::json nics = nlohmann::json::array();
  for (const double gbe : kHostNicGbE) {
    const double line = gbe * 1e9 / 8; // bytes/s
    const double usable = line * nic_efficiency;
    nics.push_back({{"gbe", gbe},
                    {"line_bytes_per_s", line},
                    {"usable_bytes_per_s", usable},
                    {"load", needed / usable},
                    {"carries", needed <= usable}});
  }
  return {{"accelerators", per_host},
          {"required_bytes_per_s", needed},
          {"reads_bytes_per_s", n * reads_per_accel},
          {"iops", n * iops_per_accel},
          {"nic_efficiency", nic_efficiency},
          {"one_nic", nics}};
}

// An object store's GETs return each sample's bytes exactly: no block padding, no page cache.
read_amplification object_read_amplification() {
  return {1, "S3 GETs: each sample's bytes exactly (1×: no block padding, no page cache)"};
}

} // namespace

measured_dataset measured_dataset::from_json(const nlohmann::json& j, const std::string& where) {
  measured_dataset m;
  m.index = j.at("index").get<std::string>();
  m.dir = j.at("dir").get<std::string>();
  m.digest = j.at("digest").get<std::string>();
  m.files = j.at("files").get<std::uint64_t>();
  m.samples = j.at("samples").get<std::uint64_t>();
  m.file_bytes = j.at("bytes").get<double>();
  m.sample_distribution = j.at("sample_bytes");
  const auto& r = j.at("reads");
  m.request_size = r.at("request_size").get<std::uint32_t>();
  m.sample_bytes = r.at("sample_bytes").get<double>();
  m.direct_bytes = r.at("direct").at("bytes").get<double>();
  m.direct_requests = r.at("direct").at("requests").get<double>();
  m.buffered_bytes = r.at("buffered").at("bytes").get<double>();
  m.buffered_requests = r.at("buffered").at("requests").get<double>();
  if (m.samples == 0 || m.files == 0 || !(m.sample_bytes > 0))
    throw usage_error(fmt::format("{}: the index lists no sample to read ({} files, {} samples). "
                                  "valid: an index of files that are not empty",
                                  where, m.files, m.samples));
  return m;
}

nlohmann::json make_plan(const plan_inputs& in) {
  const auto& p = in.accelerator.preset;
  if (!(p.compute_time_s > 0))
    throw usage_error(
        fmt::format("--compute-time: {} s per batch gives no finite demand. valid: a time above 0",
                    p.compute_time_s));
  const double bytes = in.sample_bytes();
  const double batch = static_cast<double>(p.batch_size);
  const double samples_per_s = batch / p.compute_time_s;
  const auto amp = in.object_store ? object_read_amplification()
                   : in.measured   ? analysis::amplification_of(*in.measured, in.cache)
                                 : analysis::amplification_of(bytes, in.workload.layout, in.cache);
  const double demand = samples_per_s * bytes;
  // What the storage serves: the samples' bytes times the amplification of how they are read.
  const double reads = demand * amp.factor;
  const double needed_per_accel = reads * in.au_threshold;

  nlohmann::json out = {
      {"schema", kPlanSchema},
      {"workload", in.workload.name},
      {"accelerator",
       {{"type", in.accelerator.type},
        {"batch_size", p.batch_size},
        {"compute_time_s", p.compute_time_s},
        {"source", p.source}}},
      {"sample_bytes_mean", bytes},
      {"au_threshold", in.au_threshold},
      {"samples_per_s_per_accelerator", samples_per_s},
      {"demand_bytes_per_s_per_accelerator", demand},
      {"cache_mode", in.object_store ? "none" : io::to_string(in.cache)},
      {"read_amplification", amp.factor},
      {"read_amplification_basis", amp.basis},
      {"reads_bytes_per_s_per_accelerator", reads},
      {"bytes_per_s_per_accelerator_at_threshold", needed_per_accel},
  };
  // The clients' network caps whatever the storage could give.
  const double nic_cap = in.nic_bandwidth * in.nic_efficiency * static_cast<double>(in.clients);
  out["nic_limit_bytes_per_s"] = nic_cap > 0 ? nlohmann::json(nic_cap) : nlohmann::json(nullptr);
  double deliverable = in.storage_bandwidth;
  if (nic_cap > 0)
    deliverable = deliverable > 0 ? std::min(deliverable, nic_cap) : nic_cap;
  std::uint64_t n = in.accelerators;
  if (deliverable > 0) {
    const std::uint64_t most = accelerators_within(deliverable, needed_per_accel);
    out["storage_bandwidth_bytes_per_s"] =
        in.storage_bandwidth > 0 ? nlohmann::json(in.storage_bandwidth) : nlohmann::json(nullptr);
    out["deliverable_bytes_per_s"] = deliverable;
    out["max_accelerators_at_threshold"] = most;
    if (n == 0)
      n = std::max<std::uint64_t>(1, most);
  }
  if (n == 0)
    n = 1;
  const double nn = static_cast<double>(n);
  out["accelerators"] = n;
  out["required_bytes_per_s"] = nn * needed_per_accel;
  out["demand_bytes_per_s"] = nn * demand;
  out["reads_bytes_per_s"] = nn * reads;
  // Requests: each sample's amplified range in requests of at most request_size.
  double per_sample = std::ceil(bytes * amp.factor / static_cast<double>(in.request_size));
  double samples_per_file = static_cast<double>(
      in.workload.layout == config::file_layout::files ? 1 : in.workload.records_per_file);
  if (in.measured) {
    const auto& m = *in.measured;
    const double requests =
        in.cache == io::cache_mode::direct ? m.direct_requests : m.buffered_requests;
    per_sample = requests / static_cast<double>(m.samples);
    samples_per_file = static_cast<double>(m.samples) / static_cast<double>(m.files);
  }
  out["iops"] = nn * samples_per_s * per_sample;
  if (in.accelerators_per_host > 0)
    out["per_host"] = per_host_json(in.accelerators_per_host, reads, needed_per_accel,
                                    samples_per_s * per_sample, in.nic_efficiency);
  out["files_per_s"] = nn * samples_per_s / samples_per_file;
  const double rate = deliverable > 0 ? std::min(deliverable, nn * reads) : nn * reads;
  if (deliverable > 0)
    out["expected_accelerator_utilization"] = std::min(1.0, deliverable / (nn * reads));
  if (in.row_bandwidth > 0)
    out["row"] = row_json({in.row_bandwidth, demand, n}, samples_per_s, in.au_threshold);
  const double dataset_bytes = in.measured ? in.measured->sample_bytes : in.dataset_bytes;
  if (dataset_bytes > 0) {
    // An epoch reads the dataset once (amplified), at what the storage delivers to n
    // accelerators or what they consume, the lower.
    const double epoch_s = dataset_bytes * amp.factor / rate;
    out["epoch"] = {{"dataset_bytes", dataset_bytes},
                    {"bytes_per_s", rate},
                    {"epoch_s", epoch_s},
                    {"epochs", in.epochs > 0 ? nlohmann::json(in.epochs) : nlohmann::json(nullptr)},
                    {"time_to_train_s", in.epochs > 0 ? nlohmann::json(in.epochs * epoch_s)
                                                      : nlohmann::json(nullptr)}};
  }
  // A valid run: 500 steps per epoch over all accelerators, and 5 × the clients' RAM.
  const double by_steps = static_cast<double>(kMinStepsPerEpoch) * nn * batch * bytes;
  nlohmann::json ds = {
      {"min_bytes_for_steps", by_steps},
      {"min_samples_for_steps", static_cast<double>(kMinStepsPerEpoch) * nn * batch}};
  double min_bytes = by_steps;
  if (in.client_ram > 0) {
    const double by_ram =
        kMinDatasetOverRam * static_cast<double>(in.client_ram) * static_cast<double>(in.clients);
    ds["min_bytes_for_ram"] = by_ram;
    ds["client_ram_bytes"] = in.client_ram;
    ds["clients"] = in.clients;
    min_bytes = std::max(min_bytes, by_ram);
  } else {
    ds["min_bytes_for_ram"] = nullptr;
  }
  ds["min_bytes"] = min_bytes;
  ds["min_samples"] = std::ceil(min_bytes / bytes);
  ds["rules"] = "MLPerf Storage: dataset >= 5 x the clients' RAM and >= 500 steps per epoch";
  if (in.measured) {
    ds["indexed_bytes"] = in.measured->sample_bytes;
    ds["indexed_is_enough"] = in.measured->sample_bytes >= min_bytes;
  }
  out["dataset"] = ds;
  out["dataset_source"] = dataset_source(in);
  if (in.measured)
    out["index"] = index_json(*in.measured, in.cache);
  return out;
}

object_plan plan_objects(const plan_inputs& in, const nlohmann::json& plan) {
  object_plan_inputs o;
  o.samples_per_s_per_accelerator = plan.at("samples_per_s_per_accelerator").get<double>();
  o.au_threshold = in.au_threshold;
  o.sample_bytes = in.sample_bytes();
  const bool whole = in.request_size == plan_inputs::kWholeObject;
  o.request_bytes = whole ? 0 : in.request_size;
  const std::string gets = whole ? std::string("one GET each, as dlsize's s3 engine reads")
                                 : fmt::format("ceil(its bytes / {} B) GETs", in.request_size);
  if (in.measured) {
    // Each indexed sample's own GETs, ceil(its bytes / R), not those of the mean.
    o.requests_per_sample =
        in.measured->buffered_requests / static_cast<double>(in.measured->samples);
    o.requests_basis = fmt::format("the index's {} samples, {}", in.measured->samples, gets);
  } else if (in.object_store && in.object_store->samples_per_object > 1) {
    o.samples_per_object = in.object_store->samples_per_object;
    o.requests_basis = fmt::format("{:.0f} records of {:.0f} B in a shard streamed whole, {}: "
                                   "ceil(k·S / R) / k a sample",
                                   o.samples_per_object, o.sample_bytes, gets);
  } else {
    o.requests_basis = fmt::format(
        "a sample of {:.0f} B read as {} of its own: {}", o.sample_bytes,
        in.workload.layout == config::file_layout::files ? "an object" : "a range (a record)",
        gets);
  }
  o.accelerators = plan.at("accelerators").get<std::uint64_t>();
  o.required_bytes_per_s = plan.at("required_bytes_per_s").get<double>();
  o.clients = in.clients;
  o.bandwidth_needed_per_accelerator =
      plan.at("bytes_per_s_per_accelerator_at_threshold").get<double>();
  o.deliverable_bytes_per_s = plan.value("deliverable_bytes_per_s", 0.0);
  o.store = in.object_store.value_or(object_store_assumptions{});
  return make_object_plan(o);
}

} // namespace dlsize::analysis
