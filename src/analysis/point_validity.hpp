#pragma once
// MLPerf Storage's rules over the runs of one point (one backend identity, one training load, one
// accelerator count, as size and compare group them): 5 runs after a warm-up, within 5 % of each
// other, each run valid by itself (report/mlperf_validity.hpp). The judgement is arithmetic over
// what the runs measured, so that it can be tested on numbers; point_run_of reads a report.
#include <cmath>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/report_set.hpp"
#include "report/mlperf_validity.hpp"

namespace dlsize::analysis {

inline constexpr std::size_t kMlperfRunsPerPoint = 5;
// v3.0 §2.1.17: 6 runs of which the first is the warm-up (the 5 after it are counted).
inline constexpr std::size_t kMlperfV3RunsPerPoint = 6;
// Largest (max − min) ÷ median of the counted runs' samples/s.
inline constexpr double kMlperfMaxRunSpread = 0.05;

struct point_run;
// v3.0 §2.1.18 runTimestampGap and §2.1.18a: the runs judged (the warm-up and the counted, in
// time order) ran one after another: no two overlap, each gap is shorter than the shorter of its
// two runs, and no other run given for the point (one left out) ran between the first and the
// last. Not judged where a run has no start and end. judged_by names the command.
report::validity_rule consecutive_rule(const std::vector<const point_run*>& judged,
                                       const std::vector<const point_run*>& others,
                                       const std::string& judged_by);

// One run of a point, as the judgement reads it.
struct point_run {
  std::string file;
  bool complete = true;
  double samples_per_s = std::nan(""); // NaN: the report has none
  // When the run measured: its report's time less its wall time, and its report's time
  // (seconds since the Unix epoch); NaN where the report does not say.
  double start_s = std::nan(""), end_s = std::nan("");
  report::validity run; // the run's own verdict
};

// The verdict on a point: its rules (runs, spread, each run valid), which runs were judged, which
// was taken as the warm-up, and which were left out and why.
struct point_validity {
  report::validity rules;             // rules.edition: the rules that judged
  std::vector<std::string> counted;   // files of the runs judged, in the order given
  std::optional<std::string> warm_up; // the run dropped as the warm-up
  struct left_out_run {
    std::string file, reason;
  };
  std::vector<left_out_run> left_out; // incomplete runs; v3: complete runs before the last 6
  double spread = std::nan("");       // (max − min) ÷ median of the counted samples/s
  bool qualifies() const { return rules.proven(); }
};

// Judges a point's runs, given in the order they ran (the order read: the command line's, a
// folder's files by name, a sweep's points in its index order). Incomplete runs are left out;
// when more than kMlperfRunsPerPoint complete runs remain, the first is the warm-up and is not
// counted. v1, v2: 5 counted runs are enough (the warm-up may be left out); v3: 6 complete runs
// are needed (of more, the last 6 in time: §2.1.18a), the first the warm-up, and they ran one
// after another (§2.1.18: each gap shorter
// than a run, no other run of the point between them; not judged where a run has no times). Each
// run's own verdict must be of the same edition (point_run_of). judged_by names the command that
// judges (e.g. "dlsize size").
point_validity judge_point(const std::vector<point_run>& runs, const std::string& judged_by,
                           report::rules_edition edition = report::kDefaultRules);

// A bench report (typed) as a point's run: its status, samples/s and mlperf_validity under the
// edition.
point_run point_run_of(const loaded_report& r,
                       report::rules_edition edition = report::kDefaultRules);

// The verdict as the sizing and comparison documents hold it (their "mlperf_validity" block),
// and read back from it (analysis/point_validity_json.cpp). Throws on a block that lacks a key.
nlohmann::json to_json(const point_validity& v);
point_validity point_validity_from_json(const nlohmann::json& block);

} // namespace dlsize::analysis
