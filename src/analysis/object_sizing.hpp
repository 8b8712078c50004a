#pragma once
// dlsize size of runs that read an object store (reports with a storage.s3 block): the GET rate,
// bytes per GET and time to first byte each run measured, the GET rate and requests in flight
// the projected accelerator counts need (the formulas of analysis/object_requests), and which
// limit bound the runs (requests or bandwidth), judged only where the runs support it.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "report/bench_report.hpp"

namespace dlsize::analysis {

// One run's requests, from its storage.s3 block and summary.
struct object_run {
  std::string file;
  double accelerators = 0;
  double requests_per_s = 0;      // storage.s3.requests ÷ summary.wall_s
  double requests_per_sample = 0; // storage.s3.requests ÷ summary.samples
  double bytes_per_request = 0;   // storage.s3.bytes ÷ storage.s3.requests
  double first_byte_s = 0;        // storage.s3.first_byte.mean_s
  double latency_s = 0;           // storage.s3.latency.mean_s
  bool storage_limited = false;   // the run's limit verdict was the storage
};

// A projected count: the bandwidth it needs, the GETs that are, and those in flight.
struct object_target {
  double accelerators = 0, required_bytes_per_s = 0, requests_per_s = 0, requests_in_flight = 0;
};

struct object_sizing {
  std::vector<object_run> runs; // the series' runs with request figures
  std::size_t runs_without_figures = 0;
  // Medians over the runs: GETs per sample, bytes per GET, time to first byte, and one
  // connection's body rate (bytes per GET ÷ (latency − first byte)).
  double requests_per_sample = 0, bytes_per_request = 0, first_byte_s = 0;
  double connection_bytes_per_s = 0;
  double best_requests_per_s = 0; // the highest GET rate measured
  std::vector<object_target> targets;
  std::string limit; // "requests", "bandwidth" or "not judged"
  std::string limit_reason;
};

// A run's requests; none when its report has no storage.s3 block with requests, samples, wall
// time, first byte and latency.
std::optional<object_run> object_run_of(const std::string& file, const report::bench_report& r,
                                        bool storage_limited);

// The series' object sizing from its runs' figures and its projections' (accelerators,
// required bytes/s) at the measured dataset size; `without` runs had no figures.
object_sizing size_objects(std::vector<object_run> runs, std::size_t without,
                           const std::vector<std::pair<double, double>>& targets);

} // namespace dlsize::analysis
