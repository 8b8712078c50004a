#pragma once
// Checkpoint evidence as goodput inputs: the write and restore bandwidth that checkpoint
// reports and bench runs with --checkpoint-every measured, series by series (one backend each,
// analysis/checkpoint_sizing), turned into the goodput section of each backend, as size and
// compare show it and plan --checkpoint-report plans with it. A series gives the model its
// slowest rank's median rate (MLPerf Storage's throughput) and its best median of all ranks
// (the aggregate, never assumed to grow past what was measured).
#include <string>
#include <vector>

#include "analysis/goodput_curve.hpp"
#include "analysis/goodput_document.hpp"
#include "analysis/goodput_options.hpp"
#include "analysis/report_set.hpp"
#include "analysis/sizing_document.hpp"

namespace dlsize::analysis {

// The reports that carry checkpoint evidence: complete checkpoint reports that wrote or read,
// and complete bench reports whose checkpoints block wrote one.
std::vector<const loaded_report*> checkpoint_evidence(const std::vector<loaded_report>& reports);

// The write rates a series measured; its restore rates, or the write's where no restore was
// measured (said in the source).
phase_rates series_write_rates(const checkpoint_series_document& s);
phase_rates series_restore_rates(const checkpoint_series_document& s);

// One goodput section per series that wrote (its backend's), synchronous, at the options' MTTF,
// restart overhead, target and counts. The job's checkpoint is the workload's as the report
// recorded it (a checkpoint report's profile block; for a bench run, the profile of its name),
// unscaled: --scale shrinks the load measured, not the job sized. A series whose profile cannot
// be found gets no section, and a line in warnings saying why. Each section's own warnings say
// where its evidence is thin (one run, one rank count).
std::vector<goodput_document> series_goodput(const std::vector<checkpoint_series_document>& series,
                                             const std::vector<const loaded_report*>& evidence,
                                             const goodput_options& o,
                                             std::vector<std::string>& warnings);

// plan --checkpoint-report FILE: the one series of a report that carries checkpoint evidence.
// Throws usage_error naming the file when it holds none (not a report of that kind, not
// complete, nothing written).
checkpoint_series_document report_series(const std::string& file);

} // namespace dlsize::analysis
