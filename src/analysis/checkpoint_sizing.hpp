#pragma once
// The write path of a sizing report: checkpoint reports (dlsize checkpoint) and bench reports
// with a `checkpoints` block (bench --checkpoint-every), grouped into series (one source,
// workload, backend, --scale and --subset each: different backends are never pooled), their
// write bandwidth and restore bandwidth each fitted against the ranks by the read path's own fit
// code (analysis/bandwidth_fit): no line from one count, no knee from a straight line, thin
// evidence said in warnings.
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/knee.hpp"
#include "analysis/report_set.hpp"
#include "analysis/sizing_document.hpp"

namespace dlsize::analysis {

// Whether a report is of kind checkpoint (dlsize checkpoint), of any status.
bool is_checkpoint_report(const nlohmann::json& report);
// Whether a bench report wrote checkpoints during training (a checkpoints block, count > 0).
bool has_training_checkpoints(const report::bench_report& report);
// Why a checkpoint report cannot be sized (not complete, nothing written or read), or "" when
// it can.
std::string checkpoint_exclusion(const nlohmann::json& report);

// The sizing document's `checkpoint_series` from reports that carry checkpoint evidence (a
// checkpoint report that checkpoint_exclusion accepts, or a complete bench report with
// has_training_checkpoints).
std::vector<checkpoint_series_document>
checkpoint_series(const std::vector<const loaded_report*>& reports, double alpha = kKneeAlpha);

// The sizing document's read and write paths: whether each was measured; a path without
// evidence says it is not measured and what would measure it.
std::pair<sizing_path, sizing_path> sizing_paths(bool read_measured, bool write_measured);

} // namespace dlsize::analysis
