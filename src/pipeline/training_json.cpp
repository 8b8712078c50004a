#include "pipeline/training_json.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "core/figures.hpp"
#include "pipeline/run_report.hpp"
#include "report/report_io.hpp"
#include "report/run_status.hpp"

namespace dlsize::pipeline {
namespace {

report::field<double> measured_or_null(bool measured, double v) {
  return measured ? report::field<double>(v) : report::field<double>::null();
}

report::rank_status rank_status(const rank_result& r, std::uint64_t total_steps) {
  if (!r.fail_reason.empty())
    return report::rank_status::failed;
  if (r.steps_min < total_steps)
    return report::rank_status::stopped;
  return report::rank_status::complete;
}

std::vector<report::host_nic_row> nic_rows_of(const rank_result& f,
                                              const config::nic_rates& rates) {
  std::vector<report::host_nic_row> rows;
  for (const auto& n : f.nics) {
    report::host_nic_row row;
    row.name = n.name;
    row.rx_bytes = n.rx_bytes;
    row.tx_bytes = n.tx_bytes;
    const double rx = f.wall_s > 0 ? static_cast<double>(n.rx_bytes) / f.wall_s : 0.0;
    const double tx = f.wall_s > 0 ? static_cast<double>(n.tx_bytes) / f.wall_s : 0.0;
    row.rx_bytes_per_s = rx;
    row.tx_bytes_per_s = tx;
    report::field<double> speed = report::field<double>::null();
    if (f.host_facts.nics)
      for (const auto& facts : *f.host_facts.nics)
        if (facts.name.value_or("") == n.name)
          speed = facts.speed_bits_per_s;
    row.speed_bits_per_s = speed;
    const auto declared = config::declared_nic_rate(rates, f.host, n.name);
    row.declared_bits_per_s =
        declared ? report::field<double>(*declared * 8) : report::field<double>::null();
    const double rate_bits = declared ? *declared * 8 : speed.value_or(0);
    row.utilization = rate_bits > 0 ? report::field<double>(std::max(rx, tx) * 8 / rate_bits)
                                    : report::field<double>::null();
    rows.push_back(std::move(row));
  }
  return rows;
}

} // namespace

// Before the run, the slowest rank's: every rank stats and opens before the common start.
setup_times setup_of(const report_context& c, const job_rollup& job) {
  return {job.stat_s, job.open_s, c.opt.io.keep_open};
}

job_figures figures_of_job(const report_context& c, const job_rollup& job) {
  const auto& preset = c.opt.accelerator.preset;
  job_figures f;
  f.overall = overall_of(job.accelerators);
  // Figures per accelerator count the accelerators whose results came (all, unless a rank was
  // lost); the demand is the job's.
  // The rest row (past kEpochRowsCap) counts the epochs that started, not those asked for.
  std::uint64_t steps_max = 0;
  for (const auto& a : job.accelerators)
    steps_max = std::max(steps_max, a.steps);
  const std::uint64_t spe = std::max<std::uint64_t>(1, c.smp.steps_per_epoch());
  f.epochs = epoch_figures(job.epochs, job.accelerators.size(), 0,
                           std::min(c.opt.epochs, (steps_max + spe - 1) / spe));
  f.accelerators_present = static_cast<double>(std::max<std::size_t>(1, job.accelerators.size()));
  f.mean_sample_bytes =
      static_cast<double>(c.layout.total_bytes()) / static_cast<double>(c.layout.records());
  // A real GPU's compute time per batch is what it measured: the mean busy time of its steps.
  f.cuda = c.opt.accelerator.kind == config::accelerator_kind::cuda;
  std::uint64_t measured_steps = 0;
  for (const auto& a : job.accelerators)
    measured_steps += a.measured_steps;
  f.step_s =
      f.cuda ? (measured_steps ? f.overall.compute_s / static_cast<double>(measured_steps) : 0.0)
             : preset.compute_time_s;
  f.demand_per_accelerator = core::batch_demand_bytes_per_s(static_cast<double>(preset.batch_size),
                                                            f.mean_sample_bytes, f.step_s);
  f.threshold = c.opt.workload.au_threshold;
  f.measured = f.overall.measured_accelerators > 0;
  // The verdict judges storage: the allreduce's exposed time is the accelerator's own, not a
  // wait for data (storage_au; equal to AU without --allreduce).
  f.au_pass = f.measured && f.overall.storage_au >= f.threshold;
  // The bandwidth counts --open keep's opens: the data path paid them, before the first step.
  const double paid = job.wall_s + setup_of(c, job).counted_s();
  f.read_rate = paid > 0 ? static_cast<double>(job.io.bytes) / paid : 0.0;
  return f;
}

report::accelerator_row accelerator_row_of(const rank_result& r, std::size_t a) {
  const auto& f = r.accelerators[a];
  report::accelerator_row row;
  row.id = r.first_accelerator + a;
  row.rank = static_cast<std::uint64_t>(r.rank);
  row.host = r.host;
  row.device = r.devices[a];
  row.steps = f.steps;
  row.measured_steps = f.measured_steps;
  row.samples = f.total_samples;
  row.read_bytes = f.total_bytes;
  row.measured_samples = f.samples;
  row.measured_read_bytes = f.bytes;
  row.samples_per_s = f.samples_per_s;
  row.utilization = measured_or_null(f.measured, f.utilization);
  row.compute_s = f.compute_s;
  row.window_s = f.window_s;
  row.data_wait_s = f.data_wait_s;
  row.sync_wait_s = f.sync_wait_s;
  row.comm_s = f.comm_s;
  row.storage_au = measured_or_null(f.measured, f.storage_au);
  row.first_step_wait_s = f.first_step_wait_s;
  row.data_wait = report::latency_summary_of(f.data_wait);
  row.sample_digest = fmt::format("{:016x}", r.sample_digests[a]);
  row.gpu = report::field<nlohmann::json>::null();
  if (a < r.details.size() && !r.details[a].is_null())
    row.gpu = r.details[a];
  return row;
}

report::rank_row rank_row_of(const rank_result& r, std::uint64_t total_steps) {
  const overall_figures o = overall_of(r.accelerators);
  report::rank_row row;
  row.rank = static_cast<std::uint64_t>(r.rank);
  row.host = r.host;
  row.node = static_cast<std::uint64_t>(r.node);
  row.local_rank = static_cast<std::uint64_t>(r.local_rank);
  std::vector<std::uint64_t> ids;
  for (std::size_t a = 0; a < r.accelerators.size(); ++a)
    ids.push_back(r.first_accelerator + a);
  row.accelerators = ids;
  row.samples = r.samples;
  row.read_bytes = r.io.bytes;
  row.samples_per_s = o.samples_per_s;
  row.read_bytes_per_s = r.wall_s > 0 ? static_cast<double>(r.io.bytes) / r.wall_s : 0.0;
  row.accelerator_utilization = measured_or_null(o.measured_accelerators > 0, o.utilization);
  row.data_wait_s = o.data_wait_s;
  row.sync_wait_s = o.sync_wait_s;
  row.comm_s = o.comm_s;
  row.cpu_utilization = r.cpu.process_utilization;
  row.cpu_s = cpu_seconds(r.cpu);
  row.requests = r.io.requests;
  row.read_latency = report::latency_summary_of(r.io.read_latency);
  row.failed_samples = r.failed_samples;
  row.wall_s = r.wall_s;
  row.status = report::to_string(rank_status(r, total_steps));
  if (!r.fail_reason.empty())
    row.reason = r.fail_reason;
  return row;
}

report::rank_row missing_rank_row(int rank, const std::string& host) {
  report::rank_row row;
  row.rank = static_cast<std::uint64_t>(rank);
  row.host = host;
  row.status = report::to_string(report::rank_status::missing);
  return row;
}

report::host_row host_row_of(const host_rollup& h, const config::nic_rates& rates) {
  const overall_figures o = overall_of(h.accelerators);
  const rank_result& f = *h.first;
  report::host_row row;
  row.host = f.host;
  row.node = static_cast<std::uint64_t>(h.node);
  std::vector<std::uint64_t> ranks;
  for (int r : h.ranks)
    ranks.push_back(static_cast<std::uint64_t>(r));
  row.ranks = ranks;
  row.accelerators = h.accelerators.size();
  row.samples = h.samples;
  row.samples_per_s = o.samples_per_s;
  row.read_bytes = h.read_bytes;
  row.read_bytes_per_s = f.wall_s > 0 ? static_cast<double>(h.read_bytes) / f.wall_s : 0.0;
  row.accelerator_utilization = measured_or_null(o.measured_accelerators > 0, o.utilization);
  row.storage_read_bytes = f.storage_counter ? report::field<std::uint64_t>(f.storage_bytes)
                                             : report::field<std::uint64_t>::null();
  row.hit_ratio = measured_or_null(
      f.storage_counter && h.read_bytes,
      std::clamp(1.0 - static_cast<double>(f.storage_bytes) / static_cast<double>(h.read_bytes),
                 0.0, 1.0));
  row.cpu_host_utilization = f.cpu.host_utilization;
  row.memory_end = f.memory_end;
  row.nics = nic_rows_of(f, rates);
  return row;
}

void fill_training_summary(report::summary_section& s, const report_context& c,
                           const job_rollup& job, const job_figures& f) {
  const overall_figures& o = f.overall;
  s.samples_per_s = o.samples_per_s;
  s.samples_per_s_per_accelerator = o.samples_per_s / f.accelerators_present;
  s.read_bytes_per_s = f.read_rate;
  s.read_bytes = job.io.bytes;
  s.accelerator_utilization = measured_or_null(f.measured, o.utilization);
  s.accelerator_utilization_min = measured_or_null(f.measured, o.min_utilization);
  s.accelerator_utilization_epoch_mean = report::field<double>::of(epoch_mean_au(f.epochs));
  s.au_threshold = f.threshold;
  s.au_pass = f.au_pass;
  s.demand_bytes_per_s_per_accelerator = f.demand_per_accelerator;
  s.demand_bytes_per_s = f.demand_per_accelerator * static_cast<double>(c.opt.accelerators);
  s.wall_s = job.wall_s;
  s.epochs = c.opt.epochs;
  s.epochs_completed = c.smp.epochs_done(job.steps_min);
  s.steps_per_epoch = c.smp.steps_per_epoch();
  s.steps = job.steps_min;
  s.steps_total = job.steps_run;
  s.samples = job.samples;
  s.data_wait = report::latency_summary_of(o.data_wait);
  s.data_wait_s = o.data_wait_s;
  s.sync_wait_s = o.sync_wait_s;
  s.comm_s = o.comm_s;
  s.comm_time_fraction = measured_or_null(f.measured, o.comm_fraction);
  s.storage_au = measured_or_null(f.measured, o.storage_au);
}

report::topology_section topology_of(const report_context& c, bool cuda) {
  const training_options& opt = c.opt;
  const auto& w = c.comm.where();
  const std::uint64_t per_rank = opt.accelerators / static_cast<std::uint64_t>(c.comm.size());
  std::map<int, std::uint64_t> ranks_on;
  for (int n : w.rank_nodes)
    ++ranks_on[n];
  const bool uniform = std::all_of(ranks_on.begin(), ranks_on.end(),
                                   [&](auto& kv) { return kv.second == ranks_on.begin()->second; });
  const std::uint64_t rpn = ranks_on.begin()->second;
  report::topology_section t;
  t.ranks = static_cast<std::uint64_t>(c.comm.size());
  t.nodes = static_cast<std::uint64_t>(w.nodes);
  t.accelerators = opt.accelerators;
  t.accelerators_per_rank = per_rank;
  using count = report::field<std::uint64_t>;
  t.ranks_per_node = uniform ? count(rpn) : count::null();
  t.accelerators_per_node = uniform ? count(rpn * per_rank) : count::null();
  t.accelerator_kind = std::string(cuda ? "cuda" : "emulated");
  t.communicator = std::string(c.comm.name());
  t.sync_steps = opt.step_sync();
  t.declared = report::field<report::declared_topology>::null();
  if (opt.declared_layout) {
    report::declared_topology d;
    d.nodes = static_cast<std::uint64_t>(opt.layout.nodes);
    d.accelerators_per_node = static_cast<std::uint64_t>(opt.layout.per_node);
    d.hosts = static_cast<std::uint64_t>(w.nodes);
    t.declared = d;
  }
  t.allreduce = report::field<report::allreduce_section>::null();
  if (opt.allreduce.active())
    t.allreduce = report::section_from_json<report::allreduce_section>(
        opt.allreduce.to_json(opt.layout, opt.accelerator.preset.compute_time_s),
        "/topology/allreduce");
  t.epoch_sync = true;
  t.prefetch = static_cast<std::uint64_t>(opt.prefetch);
  return t;
}

report::workload_section training_workload(const report_context& c, const job_figures& f) {
  const training_options& opt = c.opt;
  const auto& preset = opt.accelerator.preset;
  const auto& params = c.layout.params();
  report::workload_section w;
  w.name = opt.workload.name;
  w.origin = opt.workload.origin;
  w.layout = config::to_string(params.layout);
  w.format = params.format;
  w.au_threshold = f.threshold;
  // The epochs the workload trains (MLPerf Storage's run length), with where that is from.
  w.epochs = opt.workload.epochs ? report::field<std::uint64_t>(opt.workload.epochs)
                                 : report::field<std::uint64_t>::null();
  w.epochs_source = opt.workload.epochs_source.empty()
                        ? report::field<std::string>::null()
                        : report::field<std::string>(opt.workload.epochs_source);
  report::accelerator_section a;
  a.type = opt.accelerator.type;
  a.origin = opt.accelerator.origin;
  a.batch_size = preset.batch_size;
  a.compute_time_s = f.step_s; // a real GPU's: measured
  a.compute_time_stdev_s = preset.compute_time_stdev_s;
  a.source = preset.source;
  w.accelerator = a;
  w.mean_sample_bytes = f.mean_sample_bytes;
  w.model = opt.workload.model.is_null() ? nlohmann::json::object() : opt.workload.model;
  return w;
}

report::preprocessing_section preprocessing_of(const training_options& opt, const job_rollup& job) {
  report::preprocessing_section p;
  p.enabled = opt.preprocess_s > 0;
  p.cost_per_sample_s = opt.preprocess_s;
  p.samples = job.pre_samples;
  p.bytes = job.pre_bytes;
  p.cpu_s = static_cast<double>(job.pre_cpu_ns) * 1e-9;
  p.extra_passes = job.pre_passes;
  p.digest = fmt::format("{:016x}", job.pre_digest);
  return p;
}

namespace {

using report::timeseries_point;

double number_of(const report::field<double>& f) {
  return f.value_or(0.0);
}

double number_of(const report::field<report::count_or_number>& f) {
  if (!f.has_value())
    return 0.0;
  return f->whole ? static_cast<double>(f->count) : f->number;
}

// Point i of every rank: a rate or process figure (per_rank: summed; by accelerators: their mean
// weighted by each rank's accelerators) or a host's figure (once per host, summed).
struct point_merge {
  const std::vector<rank_result>& ranks;
  const std::map<int, std::vector<std::size_t>>& nodes;
  std::size_t i;

  template <class F> double per_rank(F timeseries_point::*m) const {
    double sum = 0;
    for (const auto& r : ranks)
      sum += number_of(r.timeseries[i].*m);
    return sum;
  }
  double by_accelerators(report::field<double> timeseries_point::*m) const {
    double sum = 0, weight = 0;
    for (const auto& r : ranks) {
      const auto k = static_cast<double>(r.accelerators.size());
      sum += number_of(r.timeseries[i].*m) * k;
      weight += k;
    }
    return weight > 0 ? sum / weight : 0.0;
  }
  template <class F> double per_host(F timeseries_point::*m) const {
    double sum = 0;
    for (const auto& [node, idx] : nodes)
      sum += number_of(ranks[idx.front()].timeseries[i].*m);
    return sum;
  }
  std::vector<telemetry::gpu_sample> gpus() const {
    std::vector<telemetry::gpu_sample> all;
    for (const auto& [node, idx] : nodes)
      for (const auto& g :
           ranks[idx.front()].timeseries[i].gpus.value_or(std::vector<telemetry::gpu_sample>{}))
        all.push_back(g);
    return all;
  }
};

// Point i merged: each figure rank 0's point has, merged over the ranks.
timeseries_point merged_point(const point_merge& m) {
  timeseries_point p = m.ranks[0].timeseries[m.i];
  const auto set = [](report::field<double>& f, double v) {
    if (f.has_value())
      f = v;
  };
  const auto set_sum = [](report::field<report::count_or_number>& f, double v) {
    if (f.has_value())
      f = report::count_or_number{false, 0, v};
  };
  set(p.accelerator_utilization, m.by_accelerators(&timeseries_point::accelerator_utilization));
  set(p.read_bytes_per_s, m.per_rank(&timeseries_point::read_bytes_per_s));
  set(p.samples_per_s, m.per_rank(&timeseries_point::samples_per_s));
  set(p.cpu_process, m.per_rank(&timeseries_point::cpu_process));
  set(p.cpu_host, m.per_host(&timeseries_point::cpu_host) / static_cast<double>(m.nodes.size()));
  set(p.storage_read_bytes_per_s, m.per_host(&timeseries_point::storage_read_bytes_per_s));
  set(p.device_busy, m.per_host(&timeseries_point::device_busy));
  set_sum(p.page_cache_bytes, m.per_host(&timeseries_point::page_cache_bytes));
  set_sum(p.available_bytes, m.per_host(&timeseries_point::available_bytes));
  if (p.gpus)
    p.gpus = m.gpus();
  return p;
}

} // namespace

std::vector<report::timeseries_point> merge_timeseries(const std::vector<rank_result>& ranks) {
  if (ranks.empty())
    return {};
  if (ranks.size() == 1)
    return ranks[0].timeseries;
  std::size_t points = SIZE_MAX;
  for (const auto& r : ranks)
    points = std::min(points, r.timeseries.size());
  const auto nodes = ranks_by_node(ranks);
  std::vector<timeseries_point> out;
  for (std::size_t i = 0; i < points; ++i)
    out.push_back(merged_point({ranks, nodes, i}));
  return out;
}

report::bench_report shared_sections(const report_context& c, const std::vector<rank_result>& ranks,
                                     const job_rollup& job, nlohmann::json warnings) {
  const training_options& opt = c.opt;
  const rank_result* first = ranks.empty() ? nullptr : &ranks.front();
  report::bench_report r = report::new_bench_report(c.command_line);
  r.storage = storage_json(
      job.storage_everywhere, first ? first->storage_source : "", job.storage_bytes, job.io.bytes,
      job.wall_s, first ? std::optional(first->memory_start) : std::nullopt,
      first ? std::optional(first->memory_end) : std::nullopt, c.mount.fs_type, warnings);
  if (const auto declared = config::declared_storage_rate(opt.nic_rates))
    r.storage->network_bits_per_s = *declared * 8;
  std::vector<telemetry::host_facts> hosts;
  for (const auto& h : job.hosts)
    hosts.push_back(h.first->host_facts);
  r.system = report::system_of(std::move(hosts));
  r.summary.emplace();
  add_cpu_cost(*r.summary, job.cpu, job.io.bytes, job.samples);
  r.dataset = dataset_json(opt.dataset, c.layout, c.mount, opt.client_ram);
  r.io = io_json(opt.io, first ? first->engine : opt.io.engine, first ? first->uncached_method : "",
                 job.io, job.sample_latency,
                 c.layout.params().layout == config::file_layout::shards ? "record" : "file",
                 setup_of(c, job));
  r.timeseries = merge_timeseries(ranks);
  r.warnings = warnings.get<std::vector<std::string>>();
  return r;
}

} // namespace dlsize::pipeline
