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
                     "stopped or its host stalled), longer than the lesser of {} and 10 s, "
                     "without ending the run; the run's figures include that pause",
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

// Rows per accelerator, per rank (missing ones too, in rank order) and per host.
void add_rows(report::bench_report& r, const report_context& c,
              const std::vector<rank_result>& ranks, const job_rollup& job) {
  std::vector<report::accelerator_row> accelerators;
  std::vector<report::rank_row> rank_rows;
  for (const auto& rr : ranks) {
    for (std::size_t a = 0; a < rr.accelerators.size(); ++a)
      accelerators.push_back(accelerator_row_of(rr, a));
    rank_rows.push_back(rank_row_of(rr, c.smp.total_steps()));
  }
  for (int m : c.outcome.missing)
    rank_rows.push_back(
        missing_rank_row(m, c.comm.where().rank_hosts.at(static_cast<std::size_t>(m))));
  std::stable_sort(rank_rows.begin(), rank_rows.end(),
                   [](const auto& a, const auto& b) { return *a.rank < *b.rank; });
  std::vector<report::host_row> hosts;
  for (const auto& h : job.hosts)
    hosts.push_back(host_row_of(h, c.opt.nic_rates));
  r.accelerators = std::move(accelerators);
  r.ranks = std::move(rank_rows);
  r.hosts = std::move(hosts);
}

report::phases_section phases_of(const report_context& c) {
  report::phases_section p;
  p.startup_s = c.process_start_ns && c.start_ns > c.process_start_ns
                    ? report::field<double>(sec(c.start_ns - c.process_start_ns))
                    : report::field<double>::null();
  p.run_s = sec(c.end_ns - c.start_ns);
  p.gather_s = sec(c.gathered_ns - c.end_ns);
  return p;
}

// The report's document: the envelope, every section, the status and the provenance.
nlohmann::json training_document(const report_context& c, const std::vector<rank_result>& ranks,
                                 const job_rollup& job, const job_figures& f,
                                 nlohmann::json warnings, const report::status_decision& decided) {
  const training_options& opt = c.opt;
  report::bench_report r = shared_sections(c, ranks, job, std::move(warnings));
  if (opt.s3 && job.s3 && r.storage)
    r.storage->s3 = s3_section_of(*opt.s3, *job.s3);
  r.config = opt.config;
  r.workload = training_workload(c, f);
  r.topology = topology_of(c, f.cuda);
  if (!r.summary)
    r.summary.emplace();
  fill_training_summary(*r.summary, c, job, f);
  add_rows(r, c, ranks, job);
  r.epochs = f.epochs;
  r.preprocessing = preprocessing_of(opt, job);
  r.phases = phases_of(c);
  r.status = decided.status;
  if (!decided.reason.empty())
    r.reason = decided.reason;
  if (c.checkpoints) {
    r.checkpoints = c.checkpoints->section(job.wall_s, f.overall.utilization);
    r.summary->accelerator_utilization_excluding_checkpoints =
        f.measured ? r.checkpoints->accelerator_utilization_excluding_checkpoints
                   : report::field<double>::null();
  }
  r.summary->limited_by = report::limited_by_block(r);
  report::add_provenance(r);
  return r.to_json();
}

} // namespace

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
