#pragma once
// The summary bench prints when a run ends, made from the typed report alone (what is printed
// is what the report says): a storage-only run's and a training run's, each followed by the
// epochs it stopped after (when it stopped early), the report's warnings and the MLPerf Storage
// validity verdict of the run (report/mlperf_validity.hpp).
#include <string>

#include "report/bench_report.hpp"

namespace dlsize::render {

// Engine and settings, bytes and rates, latency percentiles, the harness's CPU, the status,
// and with --verify the records checked.
std::string storage_summary(const report::bench_report& r);

// The workload on its accelerators, topology (several ranks), AU against the threshold,
// samples/s, read rate against the demand, data wait, latency, CPU and the status.
std::string training_summary(const report::bench_report& r);

// The one of the two the report is: training when it has an accelerator.
std::string bench_summary(const report::bench_report& r);

} // namespace dlsize::render
