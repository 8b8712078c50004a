// A live training run's end on one rank: its accelerators', readers' and host's figures as one
// rank_result, which rank 0 gathers into the job's report.
#include <algorithm>

#include <fmt/format.h>

#include "pipeline/run_report.hpp"
#include "pipeline/training_live_run.hpp"
#include "report/report_io.hpp"
#include "telemetry/host_provenance.hpp"

namespace dlsize::pipeline {
namespace {

// NVML's figures per GPU over the run, from the points that have them.
std::vector<telemetry::gpu_summary>
gpu_summaries(const std::vector<report::timeseries_point>& timeseries) {
  std::vector<std::vector<telemetry::gpu_sample>> samples;
  for (const auto& p : timeseries)
    if (p.gpus)
      samples.push_back(*p.gpus);
  return telemetry::nvml::summarize(samples);
}

// A real GPU's row in the report: the device, its steps, and NVML's figures for it over the run
// (found by PCI bus id, whatever CUDA_VISIBLE_DEVICES numbers it).
// Null for an emulated accelerator.
nlohmann::json gpu_details(const accel::accelerator& acc, const telemetry::nvml& nvml,
                           const std::vector<telemetry::gpu_summary>& all) {
  const nlohmann::json d = acc.run_details();
  if (d.is_null())
    return d;
  const int i = nvml.index_of_pci_bus_id(acc.pci_bus_id());
  return gpu_details_json(d, i >= 0 && static_cast<std::size_t>(i) < all.size()
                                 ? std::optional(all[static_cast<std::size_t>(i)])
                                 : std::nullopt);
}

} // namespace

void training_run::live_run::add_accelerators(
    rank_result& r, const std::vector<report::timeseries_point>& timeseries) {
  r.first_accelerator = first;
  r.steps_min = UINT64_MAX;
  const auto summaries = gpu_summaries(timeseries);
  for (std::uint64_t a = 0; a < local; ++a) {
    r.devices.push_back(m.accels[a]->device());
    r.details.push_back(gpu_details(*m.accels[a], gpus, summaries));
    r.accelerators.push_back(records[a].figures());
    r.sample_digests.push_back(consumer.digest(a));
    r.steps_run += records[a].steps();
    r.steps_min = std::min<std::uint64_t>(r.steps_min, records[a].steps());
    r.samples += records[a].steps() * preset.batch_size;
  }
  if (r.steps_min == UINT64_MAX)
    r.steps_min = 0;
  r.epochs.assign(epoch_rows(opt.epochs), epoch_partial{});
  for (const auto& acc : records)
    for (std::size_t e = 0; e < acc.epochs().size(); ++e)
      r.epochs[e].merge(acc.epochs()[e]);
}

void training_run::live_run::add_readers(rank_result& r, const io::engine_result& ran) {
  r.io = merge_stats(ran.readers);
  r.s3 = s3_figures(*m.eng);
  r.engine = m.eng->name();
  r.uncached_method = m.eng->uncached_method();
  r.stat_s = m.stat_s;
  r.open_s = m.eng->open_s();
  for (auto& t : consumer.tallies()) {
    r.sample_latency.merge(t.sample_latency);
    r.failed_samples += t.failed;
    if (r.first_error.empty())
      r.first_error = t.first_error;
    r.pre_samples += t.pre->samples();
    r.pre_bytes += t.pre->bytes();
    r.pre_cpu_ns += t.pre->cpu_ns();
    r.pre_passes += t.pre->extra_passes();
    r.pre_digest ^= t.pre->digest();
  }
}

rank_result training_run::live_run::result(const io::engine_result& ran, run_totals totals) {
  rank_result r;
  const auto& w = m.comm.where();
  r.rank = w.rank;
  r.host = w.host;
  r.node = w.node;
  r.local_rank = w.local_rank;
  add_accelerators(r, totals.timeseries);
  add_readers(r, ran);
  r.wall_s = totals.wall_s;
  r.cpu = totals.cpu;
  r.storage_counter = tele.storage().available();
  r.storage_source = tele.storage().source();
  r.storage_bytes = totals.storage_bytes;
  r.memory_start = memory_start;
  r.memory_end = telemetry::memory_now();
  r.nics = totals.nics;
  r.timeseries = std::move(totals.timeseries);
  r.host_facts = report::host_of(gpus.devices(), gpus.status(), m.provenance);
  add_run_warnings(r.warnings, opt.io, *m.eng, m.layout, m.fallback);
  for (const auto& a : ran.abandoned)
    r.warnings.push_back(fmt::format("rank {}: {}", w.rank, a));
  for (const auto& p : totals.pauses)
    r.warnings.push_back(fmt::format("rank {}: {}", w.rank, p));
  {
    std::lock_guard lk(reason_m);
    r.fail_reason = fail_reason;
    r.stop = stop;
  }
  return r;
}

} // namespace dlsize::pipeline
