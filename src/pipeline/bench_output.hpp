#pragma once
// Where a bench job's report goes and how it ends there: rank 0 reserves the file before the run
// (--out, or reports/bench-WORKLOAD-TIME.json), rewrites its partial report every
// --status-interval, and writes the finished report (the cache emulation's and warm epochs'
// figures, the file systems' separation, the workload hash, the MLPerf Storage verdict, the
// summary on stdout) or, for a stop before the run began, an incomplete one.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/output_file.hpp"
#include "pipeline/bench_job.hpp"
#include "pipeline/cache_emulation.hpp"
#include "pipeline/run_monitor.hpp"
#include "report/bench_report.hpp"

namespace dlsize::pipeline {

class bench_output {
public:
  // o must outlive the output.
  explicit bench_output(const bench_job_options& o) : m_opt(o) {}

  // Rank 0's report file, reserved before the run. Throws usage_error as output_file does.
  void reserve(const std::string& workload);
  // Rank 1's report when rank 0 was lost: as rank 0 would have written it, unless something is
  // there (nothing is overwritten: the report is then not written, and stderr says why).
  void reserve_stand_in(const std::string& workload);
  bool reserved() const { return m_out.has_value(); }

  // The report's config block (its replayable options), for the partial and final reports.
  void set_config(nlohmann::json config) { m_config = std::move(config); }
  // v3.0 §3.4.2's record (report/fs_separation.hpp) of the dataset's folder against the report's,
  // taken before the run's first read (as provenance is): at report time a stat of a hung mount
  // would block the report. Nothing without a reserved report.
  void record_fs_separation(const std::string& dataset_dir);

  // Rank 0 rewrites the partial report every interval_s while the run goes on; none elsewhere.
  status_hook partial_writer(double interval_s);

  // Ends the job on this rank with its exit status (run_bench_job's): rank 0 (a report) adds the
  // figures from outside the run (the emulation is stopped first), prints the summary unless
  // --quiet, writes the report and says where; every rank names readers left in the kernel.
  // report: none on ranks other than 0.
  int finish(std::optional<report::bench_report> report, bool failed,
             const std::vector<std::string>& abandoned, cache_emulation* emulation);
  // The same for a report made as JSON (null on ranks other than 0).
  int finish(const nlohmann::json& report, bool failed, const std::vector<std::string>& abandoned,
             cache_emulation* emulation);

  // A stop (a signal, --stall-timeout, --time-limit) that ended a read of the manifest or the
  // index before the run began: the report says so, incomplete, and the command fails (1).
  int stopped_before_run(const std::string& why);

private:
  const bench_job_options& m_opt;
  nlohmann::json m_config;
  std::optional<report::field<report::fs_separation_section>> m_fs_separation;
  std::optional<output_file> m_out;
};

} // namespace dlsize::pipeline
