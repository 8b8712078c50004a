#pragma once
// The document `dlsize size` writes ("schema": "dlsize.sizing/1", docs/sizing.md,
// docs/sizing.schema.json), as one typed value: analysis::make_sizing fills it (its read path's
// series, checkpoint_series its write path, goodput_evidence what that path costs a job under
// failures, cache_sweep its measured cache curves), the
// renderers (render/sizing_*, cache_curve_tables, checkpoint_tables) print it, and to_json
// (analysis/sizing_json.cpp) alone turns it into JSON. A figure the JSON writes as null where it
// is not finite is a double that may be NaN here; an optional is null where it is none.
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/backend_prices.hpp"
#include "analysis/cache_curve.hpp"
#include "analysis/goodput_document.hpp"
#include "analysis/goodput_options.hpp"
#include "analysis/knee.hpp"
#include "analysis/layouts.hpp"
#include "analysis/linear_fit.hpp"
#include "analysis/object_sizing.hpp"
#include "analysis/plan_scaling.hpp"
#include "analysis/point_validity.hpp"
#include "analysis/projection.hpp"
#include "analysis/requirement.hpp"
#include "analysis/scaling_model.hpp"
#include "analysis/sizing_answer.hpp"
#include "analysis/stats.hpp"
#include "report/rules_edition.hpp"

namespace dlsize::analysis {

inline constexpr const char* kSizingSchema = "dlsize.sizing/1";

struct sizing_request {
  std::vector<double> targets = {64, 128, 256};
  std::vector<double> growth = {1, 2, 4};
  double headroom = 1.2;
  double nic_bandwidth = 0;       // line rate per client, bytes/s; 0: not given
  double nic_efficiency = 0.8;    // share of the line rate reached in practice
  std::uint64_t clients = 1;      // clients of the target cluster (with nic_bandwidth)
  double front_end_bandwidth = 0; // the storage front end's limit; 0: not given
  analysis::cache_model_kind cache_model = analysis::cache_model_kind::automatic;
  double cache_bytes = -1; // --client-ram × --clients; < 0: from the reports
  // The target's accelerators per node for a modelled allreduce (--accelerators-per-node);
  // 0: as in the runs.
  std::uint64_t accelerators_per_node = 0;
  double alpha = analysis::kKneeAlpha;
  // The MLPerf Storage rules each measured point is judged by (--rules).
  report::rules_edition rules = report::kDefaultRules;
  // The dataset the targets train on, for the capacity (--dataset-size); 0: the runs'.
  double dataset_bytes = 0;
  price_list prices; // the buyer's, by backend label (--backend, backends.json)
  // The goodput model's MTTF, target loss, restart overhead and counts (--mttf and companions).
  goodput_options goodput;
};

// A 95 % interval from its bounds; none where the low bound is NaN (no interval).
std::optional<std::pair<double, double>> interval_of(double low, double high);

// The knee test in words, against a count whose noun is unit ("accelerator", "rank").
std::string knee_test_description(const std::string& unit);

// A fit's line and its two 95 % bands at one count (NaN bounds: no band, n = 2).
struct fit_curve_point {
  double count = 0, fitted = 0;
  double confidence_low = std::nan(""), confidence_high = std::nan("");
  double prediction_low = std::nan(""), prediction_high = std::nan("");
};

// A least-squares line as a sizing document holds it: the fit, and its curve from 0 to 1.1 × the
// largest measured count (none for the requirement's line).
struct sizing_fit {
  linear_fit line;
  std::vector<fit_curve_point> curve;
  // The 95 % interval of the slope and of the intercept; none without degrees of freedom.
  std::optional<std::pair<double, double>> slope_ci95() const;
  std::optional<std::pair<double, double>> intercept_ci95() const;
};
// The fit with its curve over 33 points from 0 to curve_to (no curve when curve_to is 0).
sizing_fit fit_with_curve(const linear_fit& line, double curve_to);

// One run of a read-path series.
struct sizing_run {
  run_point point;
  nlohmann::json seed; // the run's --seed as its report's config holds it; null: not there
  std::optional<double> fitted, residual; // the line's, none without a line
  std::string command;                    // the run's command line, quoted for a shell
};

// One accelerator count: its figures and the MLPerf Storage verdict on its runs.
struct sizing_point {
  count_row row;
  point_validity mlperf_validity;
};

// Where the series' cache figures come from.
struct sizing_cache {
  double measured_hit_ratio = std::nan("");
  double cache_bytes = 0;
  std::string cache_bytes_source;
  cache_model_kind model = cache_model_kind::lru;
  std::string model_reason;
};

// A count of the modelled allreduce's curve, beside the measured efficiency at that count.
struct sizing_scaling_point {
  std::uint64_t accelerators = 0;
  model::job_layout layout;
  double exposed_s = 0, efficiency = 1;
  double measured_scaling_efficiency = std::nan(""); // NaN: the count was not measured
};

// The allreduce the runs modelled and the job's efficiency over the measured and target counts.
struct sizing_scaling {
  scaling_inputs inputs;
  std::vector<sizing_scaling_point> curve; // ascending counts
};

// What the fit says of the limits: the AU knee, the backend's ceiling, the most accelerators at
// the threshold, and the line the requirement of larger counts follows.
struct sizing_limits {
  std::optional<double> first_below_accelerators;  // the AU knee; none: every count passed
  std::optional<double> most_passing_accelerators; // measured
  std::optional<double> ceiling_bytes_per_s;       // none: storage never limited AU
  double best_measured_bytes_per_s = 0;
  std::string ceiling_source;
  // The backend delivers at least best_measured (the ceiling, where there is one, is no more
  // than that): no run of the storage alone bounded it from above.
  bool ceiling_lower_bound = true;
  double clients = 1; // the most hosts a run of the series used
  std::size_t storage_limited_runs = 0, client_limited_runs = 0;
  std::optional<std::uint64_t> modelled_max_accelerators; // from the ceiling
  std::string requirement_basis;
  std::optional<linear_fit> requirement_fit;
  double repeat_cv = 0, model_error_cv = 0;
};

// One series of the read path: one workload, accelerator, backend and dataset size.
struct sizing_series {
  std::string workload, accelerator, backend, label, backend_identity, cache_mode;
  double dataset_bytes = 0;
  double mean_sample_bytes = std::nan("");
  double au_threshold = 0;
  double demand_bytes_per_s_per_accelerator = std::nan("");
  std::vector<sizing_run> runs;
  std::vector<sizing_point> measured; // ascending counts
  std::optional<sizing_fit> fit;      // none with fewer than two counts
  knee_test knee;
  sizing_limits limits;
  sizing_cache cache;
  std::vector<layout_row> layouts;
  std::optional<sizing_scaling> scaling;   // none: the runs modelled no allreduce
  std::optional<double> limit_bytes_per_s; // the physical limit given; none: none given
  std::string limit_source;
  std::vector<projection> projections;
  std::vector<std::string> warnings;
  std::optional<object_sizing> objects; // an object store's series; none for files
};

// A measured cache curve of one workload (analysis/cache_sweep), with both models beside it.
struct sizing_cache_curve {
  std::string workload;
  cache_curve curve;
};
// How a cache curve is fitted, in words.
std::string cache_curve_method();

// One run of a checkpoint series.
struct checkpoint_run_row {
  std::string file;
  double ranks = 1;
  double bytes_per_checkpoint = std::nan("");
  double write_bytes_per_s = std::nan(""), write_throughput = std::nan("");
  double write_duration_s = std::nan("");
  double read_bytes_per_s = std::nan(""), read_throughput = std::nan("");
  double read_duration_s = std::nan("");
  std::optional<double> write_fitted, write_residual, read_fitted, read_residual;
};

// A rank count of one path: its runs' bandwidth and durations.
struct checkpoint_count_row {
  double ranks = 0;
  std::size_t runs = 0;
  value_stats bytes_per_s, duration_s; // duration_s.count 0: no durations
};

// One path (write or restore) of a checkpoint series: the same fit as the read path's.
struct checkpoint_path {
  std::vector<checkpoint_count_row> measured; // ascending ranks
  std::optional<sizing_fit> fit;
  knee_test knee;
  double best_bytes_per_s = 0;
  std::vector<std::string> warnings;
};

// One series of the write path: one source, workload, backend, --scale and --subset.
struct checkpoint_series_document {
  std::string source, workload, backend, label, backend_identity, cache_mode;
  double scale = std::nan("");
  bool subset = false;
  double bytes_per_checkpoint = std::nan(""); // the runs' median
  std::vector<checkpoint_run_row> runs;
  std::optional<checkpoint_path> write, read; // none: not measured
  std::vector<std::string> warnings;
};

// Whether a path (read or write) was measured, and what measured it or would.
struct sizing_path {
  bool measured = false;
  std::string note;
};

// A report given to size: whether it was used, and why not.
struct sizing_input {
  std::string file;
  std::string reason; // empty: included
};

struct sizing_document {
  std::string created_at;
  std::string tool_version;    // this build's; to_json writes its whole tool block
  nlohmann::json command_line; // as given (report::command_line_json)
  std::vector<sizing_input> reports;
  std::vector<sweep_read> sweeps;
  sizing_request options;
  std::vector<std::string> assumptions;
  std::vector<sizing_cache_curve> cache_curves;
  // One per load (workload, accelerator, planned demand), pooled over the backends.
  std::vector<workload_requirement> requirements;
  std::vector<sizing_answer> answers; // one per requirement: the first screen
  std::vector<sizing_series> series;
  std::vector<checkpoint_series_document> checkpoint_series;
  // What failures, checkpoints and restarts cost a job on each backend whose checkpoint writes
  // were measured (analysis/goodput_evidence); empty where none were.
  std::vector<goodput_document> goodput;
  sizing_path read_path, write_path;
  std::vector<std::string> reproduce;
  std::vector<std::string> warnings;
};

nlohmann::json to_json(const sizing_document& d);

} // namespace dlsize::analysis
