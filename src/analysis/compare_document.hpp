#pragma once
// The document `dlsize compare` writes ("schema": "dlsize.compare/1"), as one typed value:
// analysis::compare_reports fills it, render/compare_render prints it, and to_json
// (analysis/compare_json.cpp) alone turns it into JSON. Nothing reads a comparison back.
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/point_validity.hpp"
#include "analysis/sizing_document.hpp"
#include "analysis/welch.hpp"
#include "core/enum_names.hpp"
#include "report/limit_verdict.hpp"

namespace dlsize::analysis {

// One metric of one backend over its runs.
struct metric_figures {
  double median = 0;
  std::size_t runs = 0;         // runs that had the metric
  std::optional<double> spread; // (max − min) ÷ |median|; none: one run, or a median of 0
  bool synthetic = false;       // a latency of the --max-read-rate token bucket, no backend's
};

// A metric of a backend by name (compare_metric_row::metric); value none: no run had it.
struct backend_metric {
  std::string metric;
  std::optional<metric_figures> value;
};

// One backend at one accelerator count: its runs, their medians and MLPerf Storage's verdict.
struct compare_backend {
  std::string backend;              // the name the tables show (report::distinct_names)
  std::string label;                // --label, or "PATH (FS_TYPE)"
  std::string identity;             // report::backend_identity::key()
  std::vector<std::string> reports; // the runs' files, in the order given
  int au_passes = 0;
  bool synthetic_latency = false;               // a run went through --max-read-rate
  std::map<report::limit_kind, int> limited_by; // runs per limit verdict
  std::vector<backend_metric> metrics;          // in compare_metric_row order
  point_validity mlperf_validity;

  std::size_t runs() const { return reports.size(); }
  // The figures of the metric named; null when no run had it or no metric has the name.
  const metric_figures* metric(std::string_view name) const {
    for (const auto& m : metrics)
      if (m.metric == name)
        return m.value ? &*m.value : nullptr;
    return nullptr;
  }
};

// Whether a backend's difference from the first is one: only when it exceeds both spreads.
enum class delta_verdict { not_known, within_spread, better, worse };
inline constexpr core::enum_table<delta_verdict, 4> kDeltaVerdictNames{
    {{delta_verdict::not_known, "not known"},
     {delta_verdict::within_spread, "within spread"},
     {delta_verdict::better, "better"},
     {delta_verdict::worse, "worse"}}};
constexpr const auto& names_of(delta_verdict) {
  return kDeltaVerdictNames;
}

// A backend's median against the first backend's.
struct metric_delta {
  double delta = 0;                   // (this − first) ÷ |first|
  std::optional<bool> exceeds_spread; // none: a side has no spread
  delta_verdict verdict = delta_verdict::not_known;
};

// One metric across the backends.
struct compare_metric_row {
  std::string metric, unit;
  bool higher_is_better = true;
  std::vector<std::optional<metric_delta>> against_first; // per backend; none: no base figure
};

// A backend's samples/s against the first's: Welch's interval on the logs.
struct ratio_against_first {
  std::string backend;
  std::optional<ratio_interval> ratio; // none: fewer than kMinRunsForInterval runs a side
  std::string text;                    // analysis::ratio_text
};

// The runs of one accelerator count, backend by backend.
struct compare_section {
  std::uint64_t accelerators = 0;
  std::vector<compare_backend> backends;
  std::vector<compare_metric_row> metrics;
  std::vector<ratio_against_first> samples_per_s_against_first;
};

// An incomplete run, listed and left out.
struct compare_left_out {
  std::string file, reason;
};

struct compare_document {
  std::string created_at; // UTC, ISO 8601
  nlohmann::json tool;    // report::tool_json() of the build that compared, passed through
  std::string workload, accelerator, dataset;
  std::vector<compare_section> sections; // by accelerator count, ascending
  std::size_t headline = 0; // the section of the largest count that the most backends share
  std::vector<compare_left_out> left_out;
  std::vector<std::string> warnings;
  // The buyer's answer over the same runs (analysis/sizing_answer), as size gives it; none
  // where the runs cannot be sized (storage-only runs), sizing_note says why.
  std::optional<sizing_document> sizing;
  std::string sizing_note;
  // What failures, checkpoints and restarts cost a job on each backend whose checkpoints the
  // reports measured (checkpoint reports, bench --checkpoint-every); empty where none did.
  std::vector<goodput_document> goodput;

  const compare_section& head() const { return sections.at(headline); }
};

// The JSON of a comparison (its keys at the top level are the headline section's, beside
// "by_accelerators"); the one place a comparison's keys are written.
nlohmann::json to_json(const compare_document& d);
// The version of dlsize that compared, from the tool block.
std::string tool_version(const compare_document& d);

} // namespace dlsize::analysis
