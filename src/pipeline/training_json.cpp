#include "pipeline/training_json.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "core/figures.hpp"
#include "pipeline/run_report.hpp"
#include "report/run_status.hpp"

namespace dlsize::pipeline {
namespace {

nlohmann::json measured_or_null(bool measured, double v) {
  return measured ? nlohmann::json(v) : nlohmann::json(nullptr);
}

report::rank_status rank_status(const rank_result& r, std::uint64_t total_steps) {
  if (!r.fail_reason.empty())
    return report::rank_status::failed;
  if (r.steps_min < total_steps)
    return report::rank_status::stopped;
  return report::rank_status::complete;
}

} // namespace

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
  f.read_rate = job.wall_s > 0 ? static_cast<double>(job.io.bytes) / job.wall_s : 0.0;
  return f;
}

nlohmann::json accelerator_json(const rank_result& r, std::size_t a) {
  const auto& f = r.accelerators[a];
  return {{"id", r.first_accelerator + a},
          {"rank", r.rank},
          {"host", r.host},
          {"device", r.devices[a]},
          {"steps", f.steps},
          {"measured_steps", f.measured_steps},
          {"samples", f.total_samples},
          {"read_bytes", f.total_bytes},
          {"measured_samples", f.samples},
          {"measured_read_bytes", f.bytes},
          {"samples_per_s", f.samples_per_s},
          {"utilization", f.measured ? nlohmann::json(f.utilization) : nlohmann::json(nullptr)},
          {"compute_s", f.compute_s},
          {"window_s", f.window_s},
          {"data_wait_s", f.data_wait_s},
          {"sync_wait_s", f.sync_wait_s},
          {"comm_s", f.comm_s},
          {"storage_au", f.measured ? nlohmann::json(f.storage_au) : nlohmann::json(nullptr)},
          {"first_step_wait_s", f.first_step_wait_s},
          {"data_wait", percentiles_json(f.data_wait)},
          {"sample_digest", fmt::format("{:016x}", r.sample_digests[a])},
          {"gpu", a < r.details.size() ? r.details[a] : nlohmann::json(nullptr)}};
}

nlohmann::json rank_row(const rank_result& r, std::uint64_t total_steps) {
  const overall_figures o = overall_of(r.accelerators);
  nlohmann::json ids = nlohmann::json::array();
  for (std::size_t a = 0; a < r.accelerators.size(); ++a)
    ids.push_back(r.first_accelerator + a);
  nlohmann::json row = {
      {"rank", r.rank},
      {"host", r.host},
      {"node", r.node},
      {"local_rank", r.local_rank},
      {"accelerators", ids},
      {"samples", r.samples},
      {"read_bytes", r.io.bytes},
      {"samples_per_s", o.samples_per_s},
      {"read_bytes_per_s", r.wall_s > 0 ? static_cast<double>(r.io.bytes) / r.wall_s : 0.0},
      {"accelerator_utilization",
       o.measured_accelerators ? nlohmann::json(o.utilization) : nlohmann::json(nullptr)},
      {"data_wait_s", o.data_wait_s},
      {"sync_wait_s", o.sync_wait_s},
      {"comm_s", o.comm_s},
      {"cpu_utilization", r.cpu.process_utilization},
      {"cpu_s", cpu_seconds(r.cpu)},
      {"requests", r.io.requests},
      {"read_latency", percentiles_json(r.io.read_latency)},
      {"failed_samples", r.failed_samples},
      {"wall_s", r.wall_s},
      {"status", report::to_string(rank_status(r, total_steps))}};
  if (!r.fail_reason.empty())
    row["reason"] = r.fail_reason;
  return row;
}

nlohmann::json host_row(const host_rollup& h) {
  const overall_figures o = overall_of(h.accelerators);
  const rank_result& f = *h.first;
  return {{"host", f.host},
          {"node", h.node},
          {"ranks", h.ranks},
          {"accelerators", h.accelerators.size()},
          {"samples", h.samples},
          {"samples_per_s", o.samples_per_s},
          {"read_bytes", h.read_bytes},
          {"read_bytes_per_s", f.wall_s > 0 ? static_cast<double>(h.read_bytes) / f.wall_s : 0.0},
          {"accelerator_utilization", measured_or_null(o.measured_accelerators > 0, o.utilization)},
          {"storage_read_bytes",
           f.storage_counter ? nlohmann::json(f.storage_bytes) : nlohmann::json(nullptr)},
          {"hit_ratio", f.storage_counter && h.read_bytes
                            ? nlohmann::json(std::clamp(1.0 - static_cast<double>(f.storage_bytes) /
                                                                  static_cast<double>(h.read_bytes),
                                                        0.0, 1.0))
                            : nlohmann::json(nullptr)},
          {"cpu_host_utilization", f.cpu.host_utilization},
          {"memory_end", f.memory_end}};
}

nlohmann::json training_summary_json(const report_context& c, const job_rollup& job,
                                     const job_figures& f) {
  const overall_figures& o = f.overall;
  const std::uint64_t spe = c.smp.steps_per_epoch();
  const double demand_total = f.demand_per_accelerator * static_cast<double>(c.opt.accelerators);
  nlohmann::json summary = {
      {"samples_per_s", o.samples_per_s},
      {"samples_per_s_per_accelerator", o.samples_per_s / f.accelerators_present},
      {"read_bytes_per_s", f.read_rate},
      {"read_bytes", job.io.bytes},
      {"accelerator_utilization", measured_or_null(f.measured, o.utilization)},
      {"accelerator_utilization_min", measured_or_null(f.measured, o.min_utilization)},
      {"accelerator_utilization_epoch_mean", epoch_mean_au(f.epochs)},
      {"au_threshold", f.threshold},
      {"au_pass", f.au_pass},
      {"demand_bytes_per_s_per_accelerator", f.demand_per_accelerator},
      {"demand_bytes_per_s", demand_total},
      {"wall_s", job.wall_s},
      {"epochs", c.opt.epochs},
      {"epochs_completed", c.smp.epochs_done(job.steps_min)},
      {"steps_per_epoch", spe},
      {"steps", job.steps_min},
      {"steps_total", job.steps_run},
      {"samples", job.samples},
      {"data_wait", percentiles_json(o.data_wait)},
      {"data_wait_s", o.data_wait_s},
      {"sync_wait_s", o.sync_wait_s},
      {"comm_s", o.comm_s},
      {"comm_time_fraction", measured_or_null(f.measured, o.comm_fraction)},
      {"storage_au", measured_or_null(f.measured, o.storage_au)},
  };
  report::summary_section cost;
  add_cpu_cost(cost, job.cpu, job.io.bytes, job.samples);
  summary.update(report::to_json(cost));
  return summary;
}

nlohmann::json topology_json(const report_context& c, bool cuda) {
  const training_options& opt = c.opt;
  const auto& w = c.comm.where();
  const std::uint64_t per_rank = opt.accelerators / static_cast<std::uint64_t>(c.comm.size());
  std::map<int, std::uint64_t> ranks_on;
  for (int n : w.rank_nodes)
    ++ranks_on[n];
  const bool uniform = std::all_of(ranks_on.begin(), ranks_on.end(),
                                   [&](auto& kv) { return kv.second == ranks_on.begin()->second; });
  const std::uint64_t rpn = ranks_on.begin()->second;
  return {
      {"ranks", c.comm.size()},
      {"nodes", w.nodes},
      {"accelerators", opt.accelerators},
      {"accelerators_per_rank", per_rank},
      {"ranks_per_node", uniform ? nlohmann::json(rpn) : nlohmann::json(nullptr)},
      {"accelerators_per_node", uniform ? nlohmann::json(rpn * per_rank) : nlohmann::json(nullptr)},
      {"accelerator_kind", cuda ? "cuda" : "emulated"},
      {"communicator", c.comm.name()},
      {"sync_steps", opt.step_sync()},
      {"declared", opt.declared_layout
                       ? nlohmann::json{{"nodes", opt.layout.nodes},
                                        {"accelerators_per_node", opt.layout.per_node},
                                        {"hosts", w.nodes}}
                       : nlohmann::json(nullptr)},
      {"allreduce", opt.allreduce.active()
                        ? opt.allreduce.to_json(opt.layout, opt.accelerator.preset.compute_time_s)
                        : nlohmann::json(nullptr)},
      {"epoch_sync", true},
      {"prefetch", opt.prefetch}};
}

nlohmann::json training_workload_json(const report_context& c, const job_figures& f) {
  const training_options& opt = c.opt;
  const auto& preset = opt.accelerator.preset;
  const auto& params = c.layout.params();
  return {
      {"name", opt.workload.name},
      {"origin", opt.workload.origin},
      {"layout", config::to_string(params.layout)},
      {"format", params.format},
      {"au_threshold", f.threshold},
      // The epochs the workload trains (MLPerf Storage's run length), with where that is from.
      {"epochs",
       opt.workload.epochs ? nlohmann::json(opt.workload.epochs) : nlohmann::json(nullptr)},
      {"epochs_source", opt.workload.epochs_source.empty()
                            ? nlohmann::json(nullptr)
                            : nlohmann::json(opt.workload.epochs_source)},
      {"accelerator",
       {{"type", opt.accelerator.type},
        {"origin", opt.accelerator.origin},
        {"batch_size", preset.batch_size},
        {"compute_time_s", f.step_s}, // a real GPU's: measured
        {"compute_time_stdev_s", preset.compute_time_stdev_s},
        {"source", preset.source}}},
      {"mean_sample_bytes", f.mean_sample_bytes},
      {"model", opt.workload.model.is_null() ? nlohmann::json::object() : opt.workload.model},
  };
}

nlohmann::json preprocessing_json(const training_options& opt, const job_rollup& job) {
  return {{"enabled", opt.preprocess_s > 0},
          {"cost_per_sample_s", opt.preprocess_s},
          {"samples", job.pre_samples},
          {"bytes", job.pre_bytes},
          {"cpu_s", static_cast<double>(job.pre_cpu_ns) * 1e-9},
          {"extra_passes", job.pre_passes},
          {"digest", fmt::format("{:016x}", job.pre_digest)}};
}

} // namespace dlsize::pipeline
