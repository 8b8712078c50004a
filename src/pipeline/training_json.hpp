#pragma once
// The training report's typed sections, one builder each, from the job's rollup and figures (the
// sums are pipeline/job_rollup's; the decisions are training_report's).
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "pipeline/job_rollup.hpp"
#include "pipeline/training_report.hpp"
#include "report/bench_report.hpp"

namespace dlsize::pipeline {

// The job's figures that several sections and the summary share.
struct job_figures {
  overall_figures overall;
  std::vector<report::epoch_row> epochs; // the report's epochs section
  double accelerators_present = 1;       // accelerators whose results came (at least 1)
  double mean_sample_bytes = 0;
  double step_s = 0; // compute time per batch: the profile's, or a real GPU's measured mean
  double demand_per_accelerator = 0;
  double threshold = 0;
  double read_rate = 0; // bytes read over the slowest rank's wall
  bool cuda = false, measured = false, au_pass = false;
};

job_figures figures_of_job(const report_context& c, const job_rollup& job);

report::accelerator_row accelerator_row_of(const rank_result& r, std::size_t a);
report::rank_row rank_row_of(const rank_result& r, std::uint64_t total_steps);
// The row of a rank whose results never came.
report::rank_row missing_rank_row(int rank, const std::string& host);
// A host's row; its NICs judged by the rates --nic-bandwidth declared.
report::host_row host_row_of(const host_rollup& h, const config::nic_rates& rates);
// The training figures of the summary (its CPU cost and limit verdict are set elsewhere).
void fill_training_summary(report::summary_section& s, const report_context& c,
                           const job_rollup& job, const job_figures& f);
report::topology_section topology_of(const report_context& c, bool cuda);
report::workload_section training_workload(const report_context& c, const job_figures& f);
report::preprocessing_section preprocessing_of(const training_options& opt, const job_rollup& job);

// The sections other code still makes as JSON (the envelope, dataset, io, storage, system
// facts, timeseries, the summary's CPU cost; storage adds its warnings to warnings), read into
// the typed report the training sections are then set on. The one place the training report
// meets those sections' JSON, until they are built typed.
report::bench_report shared_sections(const report_context& c, const std::vector<rank_result>& ranks,
                                     const job_rollup& job, nlohmann::json warnings);

} // namespace dlsize::pipeline
