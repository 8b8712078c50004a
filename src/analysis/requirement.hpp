#pragma once
// What one workload on one accelerator type asks of storage, computed once and shown alike by
// `plan`, `size` and `compare`: per accelerator at AU 100 % and at the AU threshold, planned
// from the profile (batch × sample bytes ÷ compute time) and measured from every run the client
// did not limit (bytes read ÷ AU), pooled over the backends, since the demand belongs to the
// load and not to the store. Where the two differ by more than 5 % the reasons found are named
// (read amplification, a cache, the compute time). The bandwidth n accelerators need comes from
// the measured line (docs/sizing.md) where one exists, from n × the planned demand otherwise.
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/scaling_model.hpp"

namespace dlsize::analysis {

// A difference between planned and measured demand worth naming (docs/sizing.md).
inline constexpr double kRequirementDifference = 0.05;

// One run's evidence for the requirement of its workload.
struct requirement_run {
  run_point point;
  std::string workload, accelerator, backend;
  double planned_per_accelerator = std::nan(""); // summary.demand_bytes_per_s_per_accelerator
  double au_threshold = std::nan("");
  double bytes_per_sample = std::nan("");       // summary.read_bytes ÷ summary.samples
  double profile_sample_bytes = std::nan("");   // workload.mean_sample_bytes
  double compute_time_s = std::nan("");         // workload.accelerator.compute_time_s
  double profile_compute_time_s = std::nan(""); // the profile's, where the run measured its own
};

struct workload_requirement {
  std::string workload, accelerator;
  double au_threshold = 0.9;
  // Bytes/s per accelerator at AU 100 % and at the threshold (demand × threshold).
  double planned = std::nan(""), planned_at_threshold = std::nan("");
  double measured = std::nan(""), measured_at_threshold = std::nan(""); // NaN: no run to measure
  std::size_t runs = 0, client_limited_runs = 0;
  std::vector<std::string> backends;        // the backends whose runs are pooled, in input order
  double difference = std::nan("");         // measured ÷ planned − 1
  double read_amplification = std::nan(""); // bytes read per sample ÷ the profile's sample bytes
  double hit_ratio = std::nan("");          // the runs' median share served by a cache
  std::vector<std::string> reasons; // why measured and planned differ, where they do by > 5 %
  // The requirement's line over the pooled runs (its demand_line, intervals and basis).
  scaling_analysis pooled;
  bool has_line() const { return pooled.demand_line.has_value(); }
  // "measured" where the line exists, "planned" otherwise: what reads_at uses.
  std::string source() const { return has_line() ? "measured" : "planned"; }
  // Bytes/s n accelerators read at AU 100 % (before any allreduce efficiency or cache).
  double reads_at(double n) const;
  // Half-width of its 95 % prediction interval at n; NaN without one.
  double half_width_at(double n) const;
  // How the requirement was made, in words.
  std::string basis() const;
};

// The runs grouped by workload, accelerator type and planned demand (a batch size or compute
// time of their own is another load), one requirement each, in the order first met. Throws
// usage_error when runs is empty.
std::vector<workload_requirement> requirements_of(const std::vector<requirement_run>& runs,
                                                  double alpha);

// The requirement of a profile alone (plan without runs): planned figures only.
workload_requirement planned_requirement(const std::string& workload,
                                         const std::string& accelerator,
                                         double demand_per_accelerator, double au_threshold);

// Its JSON: the planned and measured figures, the difference and its reasons, the basis
// (analysis/sizing_answer_json.cpp).
nlohmann::json to_json(const workload_requirement& r);

// The requirement of (workload, accelerator, planned demand) among reqs; null where none.
const workload_requirement* find_requirement(const std::vector<workload_requirement>& reqs,
                                             const std::string& workload,
                                             const std::string& accelerator,
                                             double planned_per_accelerator);

} // namespace dlsize::analysis
