#pragma once
// A sweep folder's index (index.json, "schema": "dlsize.sweep/1") as one typed value:
// sweep_index fills and saves it, the runner records each point's attempt in it, and
// to_json/from_json (sweep/sweep_index_json.cpp) alone write and read its JSON. Keys a typed
// field does not hold (a later dlsize's) ride along in `extra`, so an index read and written
// again keeps them.
#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/enum_names.hpp"
#include "io/engine.hpp"

namespace dlsize::sweep {

inline constexpr const char* kSweepSchema = "dlsize.sweep/1";
inline constexpr const char* kSweepIndexName = "index.json";

// A point's state: pending (never run, or its report went missing), running (an attempt began),
// done (its attempt left a complete report), interrupted (by a signal), failed.
enum class point_status { pending, running, done, interrupted, failed };
inline constexpr core::enum_table<point_status, 5> kPointStatusNames{
    {{point_status::pending, "pending"},
     {point_status::running, "running"},
     {point_status::done, "done"},
     {point_status::interrupted, "interrupted"},
     {point_status::failed, "failed"}}};
constexpr const auto& names_of(point_status) {
  return kPointStatusNames;
}

// The whole sweep's state: running, complete (every point done) or incomplete (with a reason).
enum class sweep_status { running, complete, incomplete };
inline constexpr core::enum_table<sweep_status, 3> kSweepStatusNames{
    {{sweep_status::running, "running"},
     {sweep_status::complete, "complete"},
     {sweep_status::incomplete, "incomplete"}}};
constexpr const auto& names_of(sweep_status) {
  return kSweepStatusNames;
}

// The figures a point's report gives, for the progress line and the index: a bench run's AU
// and rates, or a checkpoint run's write and restore rates (null: not measured).
struct point_summary {
  std::string status;      // the report's status ("complete", ...; "" when it says none)
  bool checkpoint = false; // a checkpoint run's rates; else a bench run's figures
  std::optional<double> accelerator_utilization, read_bytes_per_s, samples_per_s; // bench
  std::optional<bool> au_pass;                                                    // bench
  std::optional<double> write_bytes_per_s; // checkpoint; its restore is read_bytes_per_s
  nlohmann::json extra = nlohmann::json::object();

  bool complete() const { return status == "complete"; }
};

// One point of the index: what it runs and its latest attempt (null before the first).
struct point_record {
  std::string id;
  std::optional<std::uint64_t> accelerators; // none: a checkpoint point
  std::uint64_t ranks = 1, repeat = 0;
  std::optional<std::string> dataset;  // the dataset variant; none when not swept
  std::optional<io::cache_mode> cache; // none when not swept
  std::optional<std::uint64_t> seed;   // none: a checkpoint point takes no seed
  point_status status = point_status::pending;
  std::uint64_t attempts = 0;
  std::optional<std::string> report, log; // relative to the sweep folder
  std::optional<std::vector<std::string>> argv;
  std::optional<std::int64_t> exit_code, signal;
  std::optional<std::string> started_at, ended_at;
  std::optional<double> wall_s;
  std::optional<point_summary> summary; // none: the attempt left no report
  nlohmann::json extra = nlohmann::json::object();
};

struct sweep_document {
  std::string created_at;
  nlohmann::json tool;         // the dlsize that made the sweep (report::tool_json)
  nlohmann::json command_line; // the sweep's command (report::command_line_json)
  std::string config_source;
  nlohmann::json config; // the config as written: a resumed sweep must give the same
  sweep_status status = sweep_status::running;
  std::optional<std::string> reason; // why the sweep is incomplete
  std::vector<point_record> points;
  std::optional<std::string> resumed_at;
  std::string updated_at;
  nlohmann::json extra = nlohmann::json::object();
};

nlohmann::json to_json(const sweep_document& d);
// Throws usage_error "SOURCE: not a dlsize sweep index (schema dlsize.sweep/1)" for a document
// of another kind, and "SOURCE: points[2].status: ..." for a field of the wrong type or value.
sweep_document from_json(const nlohmann::json& j, const std::string& source);

// The summary of a point's report file: nothing when it is missing or not a dlsize report.
std::optional<point_summary> read_point_summary(const std::filesystem::path& report);

// Report paths (relative to the folder) of the points an index lists as done.
std::vector<std::string> done_reports(const sweep_document& index);

} // namespace dlsize::sweep
