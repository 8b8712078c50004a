#pragma once
// The training report's sections, one printer each, from the job's rollup and figures (the
// sums are pipeline/job_rollup's; the decisions are training_report's).
#include <cstdint>
#include <string>

#include <nlohmann/json.hpp>

#include "pipeline/job_rollup.hpp"
#include "pipeline/training_report.hpp"

namespace dlsize::pipeline {

// The job's figures that several sections and the summary share.
struct job_figures {
  overall_figures overall;
  nlohmann::json epochs;           // the report's epochs section
  double accelerators_present = 1; // accelerators whose results came (at least 1)
  double mean_sample_bytes = 0;
  double step_s = 0; // compute time per batch: the profile's, or a real GPU's measured mean
  double demand_per_accelerator = 0;
  double threshold = 0;
  double read_rate = 0; // bytes read over the slowest rank's wall
  bool cuda = false, measured = false, au_pass = false;
};

job_figures figures_of_job(const report_context& c, const job_rollup& job);

nlohmann::json accelerator_json(const rank_result& r, std::size_t a);
nlohmann::json rank_row(const rank_result& r, std::uint64_t total_steps);
nlohmann::json host_row(const host_rollup& h);
nlohmann::json training_summary_json(const report_context& c, const job_rollup& job,
                                     const job_figures& f);
nlohmann::json topology_json(const report_context& c, bool cuda);
nlohmann::json training_workload_json(const report_context& c, const job_figures& f);
nlohmann::json preprocessing_json(const training_options& opt, const job_rollup& job);

} // namespace dlsize::pipeline
