#include "pipeline/training_report.hpp"

#include <algorithm>
#include <map>
#include <set>

#include <fmt/format.h>

#include "core/units.hpp"
#include "pipeline/run_report.hpp"
#include "pipeline/step_metrics.hpp"
#include "report/bench_report.hpp"
#include "report/limit_verdict.hpp"
#include "report/provenance.hpp"
#include "report/report_io.hpp"
#include "report/run_status.hpp"

namespace dlsize::pipeline {
namespace {

double sec(std::uint64_t ns) {
  return static_cast<double>(ns) * 1e-9;
}

// Ranks' indexes (into the results) by host, each host's first rank first, hosts by node.
std::map<int, std::vector<std::size_t>> by_node(const std::vector<rank_result>& ranks) {
  std::map<int, std::vector<std::size_t>> m;
  for (std::size_t i = 0; i < ranks.size(); ++i)
    m[ranks[i].node].push_back(i);
  return m;
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

double cpu_seconds(const telemetry::cpu_usage& u) {
  return u.process_user_s + u.process_system_s;
}

report::rank_status rank_status(const rank_result& r, std::uint64_t total_steps) {
  if (!r.fail_reason.empty())
    return report::rank_status::failed;
  if (r.steps_min < total_steps)
    return report::rank_status::stopped;
  return report::rank_status::complete;
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

// The job's status: a rank's failure (as the rank it came from said it), a stop that stopped
// something, read errors, then ranks that never sent their results.
report::status_decision decide_job_status(const report_context& c,
                                          const std::vector<rank_result>& ranks,
                                          std::uint64_t steps_min, std::uint64_t failed_samples,
                                          const std::string& first_error,
                                          const io::reader_stats& all) {
  const int origin = c.outcome.origin;
  const std::string named = c.comm.size() > 1 ? c.comm.rank_name(origin) + ": " : "";
  const rank_result* from = nullptr;
  for (const auto& r : ranks)
    if (r.rank == origin)
      from = &r;
  report::status_inputs si;
  if (c.outcome.failed) {
    si.failure =
        named + (from && !from->fail_reason.empty() ? from->fail_reason : c.outcome.reason);
    if (from && from->failed_samples)
      si.failure += fmt::format("; first read error: {}", from->first_error);
  }
  if (c.outcome.halted && !c.outcome.failed) {
    // The time limit is rank 0's alone; a signal or a stall may come from any rank, named in the
    // reason. A rank whose results never came stopped for a reason only its text says.
    si.stop = from && from->stop.cause != stop_cause::none ? from->stop
                                                           : stop_event{stop_cause::signal, 0, ""};
    si.stop_said = named + c.outcome.reason;
  }
  si.work_done = c.outcome.missing.empty() && steps_min == c.smp.total_steps();
  si.problems = {{std::max(failed_samples, all.errors), "samples could not be read",
                  first_error.empty() ? all.first_error : first_error}};
  for (int m : c.outcome.missing)
    si.missing_ranks.push_back(c.comm.rank_name(m));
  return report::decide_status(si);
}

} // namespace

nlohmann::json merge_timeseries(const std::vector<rank_result>& ranks) {
  if (ranks.empty())
    return nlohmann::json::array();
  if (ranks.size() == 1)
    return ranks[0].timeseries;
  std::size_t points = SIZE_MAX;
  for (const auto& r : ranks)
    points = std::min(points, r.timeseries.size());
  const auto nodes = by_node(ranks);
  static const std::set<std::string> per_rank = {"read_bytes_per_s", "samples_per_s",
                                                 "cpu_process"};
  nlohmann::json out = nlohmann::json::array();
  for (std::size_t i = 0; i < points; ++i) {
    nlohmann::json p = ranks[0].timeseries[i];
    for (auto it = p.begin(); it != p.end(); ++it) {
      const std::string& key = it.key();
      if (key == "t_s" || !it.value().is_number())
        continue;
      double sum = 0, weight = 0;
      if (key == "accelerator_utilization") {
        for (const auto& r : ranks) {
          const auto k = static_cast<double>(r.accelerators.size());
          sum += r.timeseries[i].value(key, 0.0) * k;
          weight += k;
        }
        it.value() = weight > 0 ? sum / weight : 0.0;
      } else if (per_rank.count(key)) {
        for (const auto& r : ranks)
          sum += r.timeseries[i].value(key, 0.0);
        it.value() = sum;
      } else { // a host's figure: once per host; host CPU is a mean, the rest add up
        for (const auto& [node, idx] : nodes)
          sum += ranks[idx.front()].timeseries[i].value(key, 0.0);
        it.value() = key == "cpu_host" ? sum / static_cast<double>(nodes.size()) : sum;
      }
    }
    if (p.contains("gpus")) {
      nlohmann::json gpus = nlohmann::json::array();
      for (const auto& [node, idx] : nodes)
        for (const auto& g :
             ranks[idx.front()].timeseries[i].value("gpus", nlohmann::json::array()))
          gpus.push_back(g);
      p["gpus"] = gpus;
    }
    out.push_back(std::move(p));
  }
  return out;
}

training_result build_training_report(const report_context& c,
                                      const std::vector<rank_result>& ranks) {
  const training_options& opt = c.opt;
  const auto& preset = opt.accelerator.preset;
  const auto& params = c.layout.params();
  const bool multi = c.comm.size() > 1;
  const std::uint64_t total_steps = c.smp.total_steps();
  const std::uint64_t spe = c.smp.steps_per_epoch();

  std::vector<accelerator_figures> figs;
  nlohmann::json accel_json = nlohmann::json::array(), rank_rows = nlohmann::json::array();
  std::vector<io::reader_stats> stats;
  histogram sample_latency;
  std::uint64_t failed_samples = 0, consumed = 0, steps_run = 0, steps_min = UINT64_MAX;
  std::uint64_t pre_samples = 0, pre_bytes = 0, pre_cpu = 0, pre_passes = 0, pre_digest = 0;
  std::string first_error;
  std::vector<epoch_partial> epochs(opt.epochs);
  telemetry::cpu_usage cpu;
  double wall = 0;
  nlohmann::json warnings = nlohmann::json::array();
  auto warn = [&](const std::string& w) {
    if (std::find(warnings.begin(), warnings.end(), w) == warnings.end())
      warnings.push_back(w);
  };
  for (const auto& r : ranks) {
    for (std::size_t a = 0; a < r.accelerators.size(); ++a) {
      figs.push_back(r.accelerators[a]);
      accel_json.push_back(accelerator_json(r, a));
    }
    rank_rows.push_back(rank_row(r, total_steps));
    stats.push_back(r.io);
    sample_latency.merge(r.sample_latency);
    failed_samples += r.failed_samples;
    if (first_error.empty())
      first_error = r.first_error;
    consumed += r.samples;
    steps_run += r.steps_run;
    steps_min = std::min(steps_min, r.steps_min);
    pre_samples += r.pre_samples;
    pre_bytes += r.pre_bytes;
    pre_cpu += r.pre_cpu_ns;
    pre_passes += r.pre_passes;
    pre_digest ^= r.pre_digest;
    for (std::size_t e = 0; e < epochs.size() && e < r.epochs.size(); ++e)
      epochs[e].merge(r.epochs[e]);
    cpu.process_user_s += r.cpu.process_user_s;
    cpu.process_system_s += r.cpu.process_system_s;
    wall = std::max(wall, r.wall_s);
    for (const auto& w : r.warnings)
      warn(w.get<std::string>());
  }
  for (int m : c.outcome.missing)
    rank_rows.push_back({{"rank", m},
                         {"host", c.comm.where().rank_hosts.at(static_cast<std::size_t>(m))},
                         {"status", report::to_string(report::rank_status::missing)}});
  std::sort(rank_rows.begin(), rank_rows.end(),
            [](const auto& a, const auto& b) { return a["rank"] < b["rank"]; });
  if (steps_min == UINT64_MAX)
    steps_min = 0;
  const io::reader_stats all = merge_stats(stats);

  // Hosts: one row each, from its ranks; host-wide counters from its first rank.
  nlohmann::json host_rows = nlohmann::json::array(), host_facts = nlohmann::json::array();
  std::uint64_t storage_bytes = 0;
  bool storage_everywhere = !ranks.empty();
  for (const auto& [node, idx] : by_node(ranks)) {
    const rank_result& h = ranks[idx.front()];
    std::vector<accelerator_figures> hf;
    nlohmann::json rank_ids = nlohmann::json::array();
    std::uint64_t read = 0, samples = 0;
    for (std::size_t i : idx) {
      hf.insert(hf.end(), ranks[i].accelerators.begin(), ranks[i].accelerators.end());
      rank_ids.push_back(ranks[i].rank);
      read += ranks[i].io.bytes;
      samples += ranks[i].samples;
    }
    const overall_figures o = overall_of(hf);
    storage_bytes += h.storage_bytes;
    storage_everywhere = storage_everywhere && h.storage_counter;
    cpu.host_utilization += h.cpu.host_utilization;
    host_facts.push_back(h.host_facts);
    host_rows.push_back(
        {{"host", h.host},
         {"node", node},
         {"ranks", rank_ids},
         {"accelerators", hf.size()},
         {"samples", samples},
         {"samples_per_s", o.samples_per_s},
         {"read_bytes", read},
         {"read_bytes_per_s", h.wall_s > 0 ? static_cast<double>(read) / h.wall_s : 0.0},
         {"accelerator_utilization",
          o.measured_accelerators ? nlohmann::json(o.utilization) : nlohmann::json(nullptr)},
         {"storage_read_bytes",
          h.storage_counter ? nlohmann::json(h.storage_bytes) : nlohmann::json(nullptr)},
         {"hit_ratio", h.storage_counter && read
                           ? nlohmann::json(std::clamp(1.0 - static_cast<double>(h.storage_bytes) /
                                                                 static_cast<double>(read),
                                                       0.0, 1.0))
                           : nlohmann::json(nullptr)},
         {"cpu_host_utilization", h.cpu.host_utilization},
         {"memory_end", h.memory_end}});
  }
  const std::size_t nodes = std::max<std::size_t>(1, host_rows.size());
  cpu.host_utilization /= static_cast<double>(nodes);
  cpu.wall_s = wall;
  cpu.process_utilization = wall > 0 ? cpu_seconds(cpu) / wall : 0;

  const overall_figures overall = overall_of(figs);
  // Figures per accelerator count the accelerators whose results came (all, unless a rank was
  // lost); the demand is the job's.
  const nlohmann::json epochs_sec = epoch_figures(epochs, figs.size(), 0);
  const auto accels_present = static_cast<double>(std::max<std::size_t>(1, figs.size()));
  const double mean_sample =
      static_cast<double>(c.layout.total_bytes()) / static_cast<double>(c.layout.records());
  // A real GPU's compute time per batch is what it measured: the mean busy time of its steps.
  const bool cuda = opt.accelerator.kind == config::accelerator_kind::cuda;
  std::uint64_t measured_steps = 0;
  for (const auto& f : figs)
    measured_steps += f.measured_steps;
  const double step_s =
      cuda ? (measured_steps ? overall.compute_s / static_cast<double>(measured_steps) : 0.0)
           : preset.compute_time_s;
  const double demand_per_accel =
      step_s > 0 ? static_cast<double>(preset.batch_size) * mean_sample / step_s : 0.0;
  const double threshold = opt.workload.au_threshold;
  const bool measured = overall.measured_accelerators > 0;
  // The verdict judges storage: the allreduce's exposed time is the accelerator's own, not a
  // wait for data (storage_au; equal to AU without --allreduce).
  const bool au_pass = measured && overall.storage_au >= threshold;
  const auto accels_total = static_cast<double>(opt.accelerators);

  if (c.smp.dropped_per_epoch())
    warn(fmt::format("{} samples per epoch do not fill a step of {} accelerators × batch {} and "
                     "are not read (drop_last)",
                     c.smp.dropped_per_epoch(), opt.accelerators, preset.batch_size));
  if (spe < 500)
    warn(fmt::format("{} steps per epoch; MLPerf Storage asks for at least 500 (a larger dataset)",
                     spe));
  if (!measured)
    warn("fewer than two steps per accelerator ran: AU is not measured (the first step is "
         "excluded)");
  if (!cuda && preset.compute_time_s <= 0)
    warn("compute time 0: the accelerators consume batches as fast as storage delivers them, so AU "
         "is 0 by definition; read samples/s and the read rate (the storage's rate under this "
         "training's sampling)");
  if (opt.allreduce.active() && opt.allreduce.overlap == 0)
    warn("--allreduce-overlap 0 (the default): the whole modelled allreduce is exposed, an upper "
         "bound on its cost; DDP overlaps it with the backward pass");
  if (opt.sync_steps && opt.accelerators == 1)
    warn("--sync-steps with one accelerator has no one to wait for");

  const report::status_decision decided =
      decide_job_status(c, ranks, steps_min, failed_samples, first_error, all);
  if (decided.stopped_at_time_limit)
    warn(report::time_limit_warning(false));
  const std::string status = report::to_string(decided.status);
  const std::string& reason = decided.reason;

  const rank_result* first_rank = ranks.empty() ? nullptr : &ranks.front();
  nlohmann::json storage_sec = storage_json(
      storage_everywhere, first_rank ? first_rank->storage_source : "", storage_bytes, all.bytes,
      wall, first_rank ? first_rank->memory_start : nlohmann::json(nullptr),
      first_rank ? first_rank->memory_end : nlohmann::json(nullptr), c.mount.fs_type, warnings);
  const double read_rate = wall > 0 ? static_cast<double>(all.bytes) / wall : 0.0;
  nlohmann::json summary = {
      {"samples_per_s", overall.samples_per_s},
      {"samples_per_s_per_accelerator", overall.samples_per_s / accels_present},
      {"read_bytes_per_s", read_rate},
      {"read_bytes", all.bytes},
      {"accelerator_utilization",
       measured ? nlohmann::json(overall.utilization) : nlohmann::json(nullptr)},
      {"accelerator_utilization_min",
       measured ? nlohmann::json(overall.min_utilization) : nlohmann::json(nullptr)},
      {"accelerator_utilization_epoch_mean", epoch_mean_au(epochs_sec)},
      {"au_threshold", threshold},
      {"au_pass", au_pass},
      {"demand_bytes_per_s_per_accelerator", demand_per_accel},
      {"demand_bytes_per_s", demand_per_accel * accels_total},
      {"wall_s", wall},
      {"epochs", opt.epochs},
      {"epochs_completed", steps_min / spe},
      {"steps_per_epoch", spe},
      {"steps", steps_min},
      {"steps_total", steps_run},
      {"samples", consumed},
      {"data_wait", percentiles_json(overall.data_wait)},
      {"data_wait_s", overall.data_wait_s},
      {"sync_wait_s", overall.sync_wait_s},
      {"comm_s", overall.comm_s},
      {"comm_time_fraction",
       measured ? nlohmann::json(overall.comm_fraction) : nlohmann::json(nullptr)},
      {"storage_au", measured ? nlohmann::json(overall.storage_au) : nlohmann::json(nullptr)},
  };
  add_cpu_cost(summary, cpu, all.bytes, consumed);

  const auto& w = c.comm.where();
  const std::uint64_t per_rank = opt.accelerators / static_cast<std::uint64_t>(c.comm.size());
  std::map<int, std::uint64_t> ranks_on;
  for (int n : w.rank_nodes)
    ++ranks_on[n];
  const bool uniform = std::all_of(ranks_on.begin(), ranks_on.end(),
                                   [&](auto& kv) { return kv.second == ranks_on.begin()->second; });
  const std::uint64_t rpn = ranks_on.begin()->second;
  nlohmann::json topology = {
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
                        ? opt.allreduce.to_json(opt.layout, preset.compute_time_s)
                        : nlohmann::json(nullptr)},
      {"epoch_sync", true},
      {"prefetch", opt.prefetch}};
  nlohmann::json workload_sec = {
      {"name", opt.workload.name},
      {"origin", opt.workload.origin},
      {"layout", config::to_string(params.layout)},
      {"format", params.format},
      {"au_threshold", threshold},
      {"accelerator",
       {{"type", opt.accelerator.type},
        {"origin", opt.accelerator.origin},
        {"batch_size", preset.batch_size},
        {"compute_time_s", step_s}, // a real GPU's: measured
        {"compute_time_stdev_s", preset.compute_time_stdev_s},
        {"source", preset.source}}},
      {"mean_sample_bytes", mean_sample},
      {"model", opt.workload.model.is_null() ? nlohmann::json::object() : opt.workload.model},
  };
  const std::string engine = first_rank ? first_rank->engine : opt.io.engine;
  nlohmann::json report = report::report_header("bench", c.command_line);
  report.update({
      {"config", opt.config},
      {"workload", workload_sec},
      {"dataset", dataset_json(opt.dataset, c.layout, c.mount)},
      {"system", {{"hosts", host_facts}}},
      {"topology", topology},
      {"summary", summary},
      {"accelerators", accel_json},
      {"ranks", rank_rows},
      {"hosts", host_rows},
      {"epochs", epochs_sec},
      {"io",
       io_json(opt.io, engine, first_rank ? first_rank->uncached_method : "", all, sample_latency,
               params.layout == config::file_layout::shards ? "record" : "file")},
      {"preprocessing",
       {{"enabled", opt.preprocess_s > 0},
        {"cost_per_sample_s", opt.preprocess_s},
        {"samples", pre_samples},
        {"bytes", pre_bytes},
        {"cpu_s", static_cast<double>(pre_cpu) * 1e-9},
        {"extra_passes", pre_passes},
        {"digest", fmt::format("{:016x}", pre_digest)}}},
      {"storage", storage_sec},
      {"timeseries", merge_timeseries(ranks)},
      {"phases",
       {{"startup_s", c.process_start_ns && c.start_ns > c.process_start_ns
                          ? nlohmann::json(sec(c.start_ns - c.process_start_ns))
                          : nlohmann::json(nullptr)},
        {"run_s", sec(c.end_ns - c.start_ns)},
        {"gather_s", sec(c.gathered_ns - c.end_ns)}}},
      {"warnings", warnings},
      {"status", status},
  });
  if (!reason.empty())
    report["reason"] = reason;
  report["summary"]["limited_by"] =
      report::limited_by_block(report::bench_report::from_json(report));
  report::add_provenance(report);

  training_result res;
  res.failed = status != "complete";
  const double cpu_s = cpu_seconds(cpu);
  const double gib = static_cast<double>(all.bytes) / (1024.0 * 1024.0 * 1024.0);
  const std::string device = ranks.empty() || ranks[0].devices.empty() ? "" : ranks[0].devices[0];
  res.summary_text = fmt::format(
      "{} on {} × {} (batch {}, {:.4g} s per step), {} epochs × {} steps\n"
      "{}"
      "{}"
      "  AU          {}\n"
      "  samples/s   {:.1f} total, {:.1f} per accelerator\n"
      "  read        {} in {:.2f} s: {}; demand at AU 100 %: {}\n"
      "  data wait   p50 {:.3f} ms  p90 {:.3f} ms  p99 {:.3f} ms  max {:.3f} ms (per step)\n"
      "  latency     p50 {:.3f} ms  p99 {:.3f} ms (per request, {} {} cache)\n"
      "  cpu         {} {:.1f} % of one core, host {:.1f} %; {:.3f} CPU s per GiB, {:.4f} per "
      "1,000 samples\n"
      "  status      {}{}\n",
      opt.workload.name, opt.accelerators, device, preset.batch_size, step_s, opt.epochs, spe,
      multi ? fmt::format("  topology    {} nodes, {} ranks, {} accelerators per rank ({})\n",
                          w.nodes, c.comm.size(), per_rank, c.comm.name())
            : std::string(),
      opt.allreduce.active()
          ? fmt::format("  allreduce   {} over {} x {}: {:.3f} ms exposed per step, {:.1f} % of "
                        "the time; storage AU {:.1f} % (the verdict's)\n",
                        model::to_string(opt.allreduce.algorithm), opt.layout.nodes,
                        opt.layout.per_node,
                        1e3 * opt.allreduce.exposed_s(opt.layout, preset.compute_time_s),
                        100 * overall.comm_fraction, 100 * overall.storage_au)
          : std::string(),
      measured
          ? fmt::format("{:.1f} %{} (threshold {:.0f} %: {}), lowest accelerator {:.1f} %",
                        100 * overall.utilization,
                        opt.allreduce.active()
                            ? fmt::format(", storage AU {:.1f} %", 100 * overall.storage_au)
                            : std::string(),
                        100 * threshold, au_pass ? "PASS" : "FAIL", 100 * overall.min_utilization)
          : std::string("not measured (fewer than two steps)"),
      overall.samples_per_s, overall.samples_per_s / accels_present,
      units::format_bytes_binary(static_cast<double>(all.bytes)), wall,
      units::format_rate_both(read_rate), units::format_rate_both(demand_per_accel * accels_total),
      overall.data_wait.quantile(0.5) * 1e-6, overall.data_wait.quantile(0.9) * 1e-6,
      overall.data_wait.quantile(0.99) * 1e-6, static_cast<double>(overall.data_wait.max()) * 1e-6,
      all.read_latency.quantile(0.5) * 1e-6, all.read_latency.quantile(0.99) * 1e-6, engine,
      io::to_string(opt.io.cache), multi ? "all ranks" : "process", cpu.process_utilization * 100,
      cpu.host_utilization * 100, gib > 0 ? cpu_s / gib : 0.0,
      consumed ? cpu_s * 1000.0 / static_cast<double>(consumed) : 0.0, status,
      reason.empty() ? "" : ": " + reason);
  res.summary_text += report::limit_line(report["summary"]["limited_by"]);
  res.report = std::move(report);
  return res;
}

} // namespace dlsize::pipeline
