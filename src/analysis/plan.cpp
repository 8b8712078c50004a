#include "analysis/plan.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include <fmt/format.h>

#include "analysis/plan_row.hpp"
#include "analysis/plan_scaling.hpp"
#include "analysis/read_amplification.hpp"
#include "core/error.hpp"
#include "core/figures.hpp"

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

plan_index index_of(const measured_dataset& m, io::cache_mode cache) {
  const bool direct = cache == io::cache_mode::direct;
  plan_index i;
  i.path = m.index;
  i.dir = m.dir;
  i.digest = m.digest;
  i.files = m.files;
  i.samples = m.samples;
  i.file_bytes = m.file_bytes;
  i.sample_bytes = m.sample_bytes;
  i.samples_per_file = static_cast<double>(m.samples) / static_cast<double>(m.files);
  i.sample_bytes_distribution = m.sample_distribution;
  i.p50 = m.sample_distribution.p50;
  i.p99 = m.sample_distribution.p99;
  i.max = static_cast<double>(m.sample_distribution.max);
  i.request_size = m.request_size;
  i.read_bytes = direct ? m.direct_bytes : m.buffered_bytes;
  i.requests = direct ? m.direct_requests : m.buffered_requests;
  return i;
}

// What one client host running `per_host` accelerators must sustain: the reads at the AU
// threshold and at AU 100 %, the requests, and whether one NIC of each line rate carries it
// (the line rate × --nic-efficiency).
plan_per_host per_host_of(std::uint64_t per_host, double reads_per_accel, double needed_per_accel,
                          double iops_per_accel, double nic_efficiency) {
  const double n = static_cast<double>(per_host);
  plan_per_host h;
  h.accelerators = per_host;
  h.required_bytes_per_s = n * needed_per_accel;
  h.reads_bytes_per_s = n * reads_per_accel;
  h.iops = n * iops_per_accel;
  h.nic_efficiency = nic_efficiency;
  for (const double gbe : kHostNicGbE) {
    const double line = gbe * 1e9 / 8; // bytes/s
    const double usable = line * nic_efficiency;
    h.one_nic.push_back(
        {gbe, line, usable, h.required_bytes_per_s / usable, h.required_bytes_per_s <= usable});
  }
  return h;
}

// A valid run: 500 steps per epoch over all accelerators, and 5 × the clients' RAM.
plan_dataset dataset_of(const plan_inputs& in, double accelerators, double bytes) {
  const double batch = static_cast<double>(in.accelerator.preset.batch_size);
  plan_dataset ds;
  ds.min_bytes_for_steps = static_cast<double>(kMinStepsPerEpoch) * accelerators * batch * bytes;
  ds.min_samples_for_steps = static_cast<double>(kMinStepsPerEpoch) * accelerators * batch;
  ds.min_bytes = ds.min_bytes_for_steps;
  if (in.client_ram > 0) {
    const double by_ram =
        kMinDatasetOverRam * static_cast<double>(in.client_ram) * static_cast<double>(in.clients);
    ds.ram = plan_ram_rule{by_ram, in.client_ram, in.clients};
    ds.min_bytes = std::max(ds.min_bytes, by_ram);
  }
  ds.min_samples = std::ceil(ds.min_bytes / bytes);
  ds.rules = "MLPerf Storage: dataset >= 5 x the clients' RAM and >= 500 steps per epoch";
  if (in.measured)
    ds.indexed = plan_indexed{in.measured->sample_bytes, in.measured->sample_bytes >= ds.min_bytes};
  return ds;
}

// An object store's GETs return each sample's bytes exactly: no block padding, no page cache.
read_amplification object_read_amplification() {
  return {1, "S3 GETs: each sample's bytes exactly (1×: no block padding, no page cache)"};
}

} // namespace

measured_dataset measured_dataset::of(const dataset::index_read_shape_result& s,
                                      const std::string& where) {
  measured_dataset m;
  m.index = s.stats.index;
  m.dir = s.stats.dir;
  m.digest = s.stats.digest;
  m.files = s.stats.files;
  m.samples = s.stats.samples;
  m.file_bytes = static_cast<double>(s.stats.bytes);
  m.sample_distribution = s.stats.sample_bytes;
  m.request_size = s.reads.request_size;
  m.sample_bytes = s.reads.sample_bytes;
  m.direct_bytes = s.reads.direct.bytes;
  m.direct_requests = s.reads.direct.requests;
  m.buffered_bytes = s.reads.buffered.bytes;
  m.buffered_requests = s.reads.buffered.requests;
  if (m.samples == 0 || m.files == 0 || !(m.sample_bytes > 0))
    throw usage_error(fmt::format("{}: the index lists no sample to read ({} files, {} samples). "
                                  "valid: an index of files that are not empty",
                                  where, m.files, m.samples));
  return m;
}

namespace {

// One accelerator's figures: the samples it consumes, their bytes, and what the storage serves
// for them (the samples' bytes times the amplification of how they are read).
plan_reads per_accelerator(const plan_inputs& in) {
  const auto& p = in.accelerator.preset;
  if (!(p.compute_time_s > 0))
    throw usage_error(
        fmt::format("--compute-time: {} s per batch gives no finite demand. valid: a time above 0",
                    p.compute_time_s));
  plan_reads r;
  r.accelerator = {in.accelerator.type, p.batch_size, p.compute_time_s, p.source};
  r.sample_bytes_mean = in.sample_bytes();
  r.au_threshold = in.au_threshold;
  r.samples_per_s_per_accelerator = static_cast<double>(p.batch_size) / p.compute_time_s;
  const auto amp =
      in.object_store ? object_read_amplification()
      : in.measured   ? analysis::amplification_of(*in.measured, in.cache)
                    : analysis::amplification_of(r.sample_bytes_mean, in.workload.layout, in.cache);
  r.demand_bytes_per_s_per_accelerator =
      core::demand_bytes_per_s(r.samples_per_s_per_accelerator, r.sample_bytes_mean);
  r.cache_mode = in.object_store ? "none" : io::to_string(in.cache);
  r.read_amplification = amp.factor;
  r.read_amplification_basis = amp.basis;
  r.reads_bytes_per_s_per_accelerator = r.demand_bytes_per_s_per_accelerator * amp.factor;
  r.bytes_per_s_per_accelerator_at_threshold =
      core::bandwidth_at_threshold(r.reads_bytes_per_s_per_accelerator, in.au_threshold);
  r.request_size = in.request_size;
  r.clients = in.clients;
  r.nic_bandwidth = in.nic_bandwidth;
  r.nic_efficiency = in.nic_efficiency;
  return r;
}

// What the storage delivers (its bandwidth capped by the clients' network) and the
// accelerators planned for: the count given, else the most the delivery supports, else 1.
void plan_count(const plan_inputs& in, plan_reads& r) {
  const double nic_cap = in.nic_bandwidth * in.nic_efficiency * static_cast<double>(in.clients);
  if (nic_cap > 0)
    r.nic_limit_bytes_per_s = nic_cap;
  double deliverable = in.storage_bandwidth;
  if (nic_cap > 0)
    deliverable = deliverable > 0 ? std::min(deliverable, nic_cap) : nic_cap;
  std::uint64_t n = in.accelerators;
  if (deliverable > 0) {
    plan_storage s;
    if (in.storage_bandwidth > 0)
      s.storage_bandwidth_bytes_per_s = in.storage_bandwidth;
    s.deliverable_bytes_per_s = deliverable;
    s.max_accelerators_at_threshold =
        accelerators_within(deliverable, r.bytes_per_s_per_accelerator_at_threshold);
    if (n == 0)
      n = std::max<std::uint64_t>(1, s.max_accelerators_at_threshold);
    r.storage = s;
  }
  r.accelerators = n == 0 ? 1 : n;
}

// Requests: each sample's amplified range in requests of at most request_size (with an index,
// its measured requests), and the files they come from.
void plan_requests(const plan_inputs& in, plan_reads& r) {
  const double nn = static_cast<double>(r.accelerators);
  double per_sample =
      std::ceil(r.sample_bytes_mean * r.read_amplification / static_cast<double>(in.request_size));
  double samples_per_file = static_cast<double>(
      in.workload.layout == config::file_layout::files ? 1 : in.workload.records_per_file);
  if (in.measured) {
    const auto& m = *in.measured;
    const double requests =
        in.cache == io::cache_mode::direct ? m.direct_requests : m.buffered_requests;
    per_sample = requests / static_cast<double>(m.samples);
    samples_per_file = static_cast<double>(m.samples) / static_cast<double>(m.files);
  }
  r.iops = nn * r.samples_per_s_per_accelerator * per_sample;
  if (in.accelerators_per_host > 0)
    r.per_host = per_host_of(in.accelerators_per_host, r.reads_bytes_per_s_per_accelerator,
                             r.bytes_per_s_per_accelerator_at_threshold,
                             r.samples_per_s_per_accelerator * per_sample, in.nic_efficiency);
  r.files_per_s = nn * r.samples_per_s_per_accelerator / samples_per_file;
}

// An epoch reads the dataset once (amplified), at what the storage delivers to the
// accelerators or what they consume, the lower.
plan_epoch epoch_of(const plan_inputs& in, double dataset_bytes, double rate, double amp) {
  plan_epoch e;
  e.dataset_bytes = dataset_bytes;
  e.bytes_per_s = rate;
  e.epoch_s = dataset_bytes * amp / rate;
  if (in.epochs > 0) {
    e.epochs = in.epochs;
    e.time_to_train_s = in.epochs * e.epoch_s;
  }
  return e;
}

} // namespace

plan_reads make_plan(const plan_inputs& in) {
  plan_reads r = per_accelerator(in);
  plan_count(in, r);
  const double nn = static_cast<double>(r.accelerators);
  r.required_bytes_per_s = nn * r.bytes_per_s_per_accelerator_at_threshold;
  r.demand_bytes_per_s = nn * r.demand_bytes_per_s_per_accelerator;
  r.reads_bytes_per_s = nn * r.reads_bytes_per_s_per_accelerator;
  plan_requests(in, r);
  const double deliverable = r.storage ? r.storage->deliverable_bytes_per_s : 0;
  const double rate = deliverable > 0
                          ? std::min(deliverable, nn * r.reads_bytes_per_s_per_accelerator)
                          : nn * r.reads_bytes_per_s_per_accelerator;
  if (deliverable > 0)
    r.expected_accelerator_utilization =
        core::au_at_bandwidth(deliverable, nn * r.reads_bytes_per_s_per_accelerator);
  if (in.row_bandwidth > 0)
    r.row = make_row({in.row_bandwidth, r.demand_bytes_per_s_per_accelerator, r.accelerators},
                     r.samples_per_s_per_accelerator, in.au_threshold);
  const double dataset_bytes = in.measured ? in.measured->sample_bytes : in.dataset_bytes;
  if (dataset_bytes > 0)
    r.epoch = epoch_of(in, dataset_bytes, rate, r.read_amplification);
  r.dataset = dataset_of(in, nn, r.sample_bytes_mean);
  r.dataset_source = dataset_source(in);
  if (in.measured)
    r.index = index_of(*in.measured, in.cache);
  return r;
}

object_plan plan_objects(const plan_inputs& in, const plan_reads& plan) {
  object_plan_inputs o;
  o.samples_per_s_per_accelerator = plan.samples_per_s_per_accelerator;
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
  o.accelerators = plan.accelerators;
  o.required_bytes_per_s = plan.required_bytes_per_s;
  o.clients = in.clients;
  o.bandwidth_needed_per_accelerator = plan.bytes_per_s_per_accelerator_at_threshold;
  o.deliverable_bytes_per_s = plan.storage ? plan.storage->deliverable_bytes_per_s : 0.0;
  o.store = in.object_store.value_or(object_store_assumptions{});
  return make_object_plan(o);
}

plan_reads plan_read_side(const plan_inputs& in, const config::allreduce_request& request,
                          const std::set<std::string>& given) {
  plan_reads plan = make_plan(in);
  config::require_allreduce_for_inputs(request, given);
  const config::allreduce_setup allreduce =
      config::resolve_allreduce(request, in.workload, in.accelerator);
  if (allreduce.active()) {
    scaling_inputs si;
    si.allreduce = allreduce;
    si.per_node = request.accelerators_per_node ? request.accelerators_per_node
                                                : allreduce.accelerators_per_node;
    si.compute_s = in.accelerator.preset.compute_time_s;
    si.batch = static_cast<double>(in.accelerator.preset.batch_size);
    si.sample_bytes = in.sample_bytes();
    si.au_threshold = in.au_threshold;
    add_scaling(plan, si, in.storage_bandwidth, in.accelerators);
  }
  if (in.object_store)
    plan.s3 = plan_objects(in, plan);
  return plan;
}

} // namespace dlsize::analysis
