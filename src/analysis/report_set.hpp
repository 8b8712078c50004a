#pragma once
// Reports named on a command line: files, folders of reports, and sweep folders (the reports
// of the points their index lists as done).
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "report/bench_report.hpp"

namespace dlsize::analysis {

// A report and the file it came from; typed when it is a bench report (what the analyses read:
// they retype their inputs on entry, so that a caller may edit `report` first).
struct loaded_report {
  std::string file;
  nlohmann::json report;
  std::optional<report::bench_report> typed;
  // The typed fields of every report, bench or checkpoint (bench_report::fields_of): what the
  // run identity (workload, accelerators, dataset, config) is read from.
  report::bench_report fields;

  // Throws usage_error naming the file and key when a report's typed key has the wrong type.
  static loaded_report of(std::string file, nlohmann::json report);
};

// A sweep folder read: its folder and the command that made it (report::command_line_json).
struct sweep_read {
  std::string folder;
  nlohmann::json command_line;
};

struct report_inputs {
  std::vector<loaded_report> reports;
  std::vector<sweep_read> sweeps; // for the commands that reproduce a report
  std::vector<std::string> notes; // files passed over and why
};

// Reads every argument: a JSON file; a sweep folder (its index.json names the reports of the
// points that are done); another folder (its *.json files that are dlsize bench reports, in
// name order). Throws usage_error naming the path that does not exist, cannot be read or is
// not JSON, and a folder that holds no report.
report_inputs load_reports(const std::vector<std::string>& args);

// The reports with `typed` made from `report` (loaded_report::of each).
std::vector<loaded_report> typed_reports(const std::vector<loaded_report>& reports);

// One line per run that several reports are ("a.json, b.json are one run (run_id …): copies,
// not repeats"): by run_id, or by content for reports without one (older dlsize).
std::vector<std::string> duplicate_runs(const std::vector<loaded_report>& reports);
// Throws usage_error with those lines when there are any: a copy counted as a repeat would
// narrow every interval and weigh its run twice.
void refuse_duplicate_runs(const std::vector<loaded_report>& reports);

} // namespace dlsize::analysis
