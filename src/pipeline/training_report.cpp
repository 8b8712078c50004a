#include "pipeline/training_report.hpp"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "pipeline/job_rollup.hpp"
#include "pipeline/run_report.hpp"
#include "pipeline/training_json.hpp"
#include "report/bench_report.hpp"
#include "report/limit_verdict.hpp"
#include "report/provenance.hpp"
#include "report/report_io.hpp"
#include "report/run_status.hpp"

namespace dlsize::pipeline {
namespace {

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

// The job's warnings: every rank's, then what the job's own figures and options call for.
nlohmann::json job_warnings(const report_context& c, const job_rollup& job, const job_figures& f) {
  const training_options& opt = c.opt;
  const auto& preset = opt.accelerator.preset;
  nlohmann::json warnings = nlohmann::json::array();
  auto warn = [&](const std::string& w) {
    if (std::find(warnings.begin(), warnings.end(), w) == warnings.end())
      warnings.push_back(w);
  };
  for (const auto& w : job.warnings)
    warn(w);
  for (const auto& p : c.outcome.pauses)
    warn(fmt::format("{} did not run for {:.1f} s from {:.1f} s into the run (its process was "
                     "stopped or its host stalled), longer than {} without ending the run; the "
                     "run's figures include that pause",
                     c.comm.rank_name(p.rank), p.seconds, p.at_s,
                     opt.stall_timeout_s > 0
                         ? fmt::format("--stall-timeout {:g} s", opt.stall_timeout_s)
                         : std::string("half of --rank-timeout")));
  if (c.smp.dropped_per_epoch() && c.smp.streamed())
    warn(fmt::format("up to {} samples per epoch are not read: with --shard-read stream an epoch "
                     "ends when the accelerator whose shards hold the fewest records has no whole "
                     "batch left (drop_last)",
                     c.smp.dropped_per_epoch()));
  else if (c.smp.dropped_per_epoch())
    warn(fmt::format("{} samples per epoch do not fill a step of {} accelerators × batch {} and "
                     "are not read (drop_last)",
                     c.smp.dropped_per_epoch(), opt.accelerators, preset.batch_size));
  if (c.smp.steps_per_epoch() < 500)
    warn(fmt::format("{} steps per epoch; MLPerf Storage asks for at least 500 (a larger dataset)",
                     c.smp.steps_per_epoch()));
  if (!f.measured)
    warn("fewer than two steps per accelerator ran: AU is not measured (the first step is "
         "excluded)");
  if (!f.cuda && preset.compute_time_s <= 0)
    warn("compute time 0: the accelerators consume batches as fast as storage delivers them, so AU "
         "is 0 by definition; read samples/s and the read rate (the storage's rate under this "
         "training's sampling)");
  if (opt.allreduce.active() && opt.allreduce.overlap == 0)
    warn("--allreduce-overlap 0 (the default): the whole modelled allreduce is exposed, an upper "
         "bound on its cost; DDP overlaps it with the backward pass");
  if (opt.sync_steps && opt.accelerators == 1)
    warn("--sync-steps with one accelerator has no one to wait for");
  return warnings;
}

// Rows per accelerator, per rank (missing ones too) and per host.
struct job_rows {
  nlohmann::json accelerators = nlohmann::json::array(), ranks = nlohmann::json::array();
  nlohmann::json hosts = nlohmann::json::array(), host_facts = nlohmann::json::array();
};

job_rows rows_of(const report_context& c, const std::vector<rank_result>& ranks,
                 const job_rollup& job) {
  job_rows rows;
  for (const auto& r : ranks) {
    for (std::size_t a = 0; a < r.accelerators.size(); ++a)
      rows.accelerators.push_back(accelerator_json(r, a));
    rows.ranks.push_back(rank_row(r, c.smp.total_steps()));
  }
  for (int m : c.outcome.missing)
    rows.ranks.push_back({{"rank", m},
                          {"host", c.comm.where().rank_hosts.at(static_cast<std::size_t>(m))},
                          {"status", report::to_string(report::rank_status::missing)}});
  std::sort(rows.ranks.begin(), rows.ranks.end(),
            [](const auto& a, const auto& b) { return a["rank"] < b["rank"]; });
  for (const auto& h : job.hosts) {
    rows.hosts.push_back(host_row(h));
    rows.host_facts.push_back(h.first->host_facts);
  }
  return rows;
}

// The report's document: the envelope, every section, the status and the provenance.
nlohmann::json training_document(const report_context& c, const std::vector<rank_result>& ranks,
                                 const job_rollup& job, const job_figures& f,
                                 nlohmann::json warnings, const report::status_decision& decided) {
  const training_options& opt = c.opt;
  const rank_result* first = ranks.empty() ? nullptr : &ranks.front();
  const job_rows rows = rows_of(c, ranks, job);
  report::storage_section storage_sec =
      storage_json(job.storage_everywhere, first ? first->storage_source : "", job.storage_bytes,
                   job.io.bytes, job.wall_s, first ? first->memory_start : nlohmann::json(nullptr),
                   first ? first->memory_end : nlohmann::json(nullptr), c.mount.fs_type, warnings);
  if (opt.s3 && job.s3)
    storage_sec.s3 = s3_section_of(*opt.s3, *job.s3);
  nlohmann::json report = report::report_header("bench", c.command_line);
  report.update({
      {"config", opt.config},
      {"workload", training_workload_json(c, f)},
      {"dataset", report::to_json(dataset_json(opt.dataset, c.layout, c.mount, opt.client_ram))},
      {"system", {{"hosts", rows.host_facts}}},
      {"topology", topology_json(c, f.cuda)},
      {"summary", training_summary_json(c, job, f)},
      {"accelerators", rows.accelerators},
      {"ranks", rows.ranks},
      {"hosts", rows.hosts},
      {"epochs", f.epochs},
      {"io", report::to_json(io_json(
                 opt.io, first ? first->engine : opt.io.engine, first ? first->uncached_method : "",
                 job.io, job.sample_latency,
                 c.layout.params().layout == config::file_layout::shards ? "record" : "file"))},
      {"preprocessing", preprocessing_json(opt, job)},
      {"storage", report::to_json(storage_sec)},
      {"timeseries", merge_timeseries(ranks)},
      {"phases",
       {{"startup_s", c.process_start_ns && c.start_ns > c.process_start_ns
                          ? nlohmann::json(sec(c.start_ns - c.process_start_ns))
                          : nlohmann::json(nullptr)},
        {"run_s", sec(c.end_ns - c.start_ns)},
        {"gather_s", sec(c.gathered_ns - c.end_ns)}}},
      {"warnings", warnings},
      {"status", report::to_string(decided.status)},
  });
  if (!decided.reason.empty())
    report["reason"] = decided.reason;
  if (c.checkpoints) {
    report["checkpoints"] = c.checkpoints->to_json(job.wall_s, f.overall.utilization);
    report["summary"]["accelerator_utilization_excluding_checkpoints"] =
        f.measured ? report["checkpoints"]["accelerator_utilization_excluding_checkpoints"]
                   : nlohmann::json(nullptr);
  }
  report["summary"]["limited_by"] =
      report::to_json(report::limited_by_block(report::bench_report::from_json(report)));
  report::add_provenance(report);
  return report;
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
  const auto nodes = ranks_by_node(ranks);
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
  const job_rollup job = roll_up(ranks, c.opt.epochs);
  const job_figures f = figures_of_job(c, job);
  nlohmann::json warnings = job_warnings(c, job, f);
  const report::status_decision decided =
      decide_job_status(c, ranks, job.steps_min, job.failed_samples, job.first_error, job.io);
  if (decided.stopped_at_time_limit)
    warnings.push_back(report::time_limit_warning(false));
  nlohmann::json report = training_document(c, ranks, job, f, std::move(warnings), decided);
  training_result res;
  res.failed = decided.status != report::run_status::complete;
  res.report = std::move(report);
  return res;
}

} // namespace dlsize::pipeline
