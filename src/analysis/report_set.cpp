#include "analysis/report_set.hpp"

#include <algorithm>
#include <filesystem>
#include <map>

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/json_checks.hpp"
#include "core/json_input.hpp"
#include "report/bench_report.hpp"
#include "report/checkpoint_document.hpp"
#include "report/report_input.hpp"
#include "report/report_io.hpp"
#include "sweep/sweep_document.hpp"
#include "sweep/sweep_index.hpp"

namespace dlsize::analysis {

using namespace report; // the report envelope and identity
namespace fs = std::filesystem;
namespace {

// A report named on the command line or by a sweep's index: refused, naming the file, when it
// is of another kind or its schema refuses it (report::read_report_input).
loaded_report read_report(const fs::path& p) {
  return loaded_report::of(p.string(), read_report_input(p, report_use::bench_or_checkpoint));
}

// A *.json file met in a folder: a report, checked as read_report checks one; anything else is
// passed over with a note saying what it is.
std::optional<loaded_report> read_folder_file(const fs::path& p, report_inputs& in) {
  input_document d;
  try {
    d = read_input_document(p);
  } catch (const usage_error&) {
    in.notes.push_back(fmt::format("{}: not JSON, passed over", p.string()));
    return std::nullopt;
  }
  if (!d.lines_kind.empty()) {
    in.notes.push_back(fmt::format("{}: {}, passed over", p.string(), d.lines_kind));
    return std::nullopt;
  }
  nlohmann::json& j = d.doc;
  if (!is_bench_report(j) && !report::is_checkpoint_report(j)) {
    const std::string kind = dlsize_kind_of(j);
    in.notes.push_back(
        fmt::format("{}: {}, passed over", p.string(),
                    kind.empty() ? "not a dlsize bench or checkpoint report" : kind));
    return std::nullopt;
  }
  check_report_input(j, p.string(), report_use::bench_or_checkpoint);
  return loaded_report::of(p.string(), std::move(j));
}

void load_folder(const fs::path& dir, report_inputs& in) {
  const fs::path index = dir / sweep::kSweepIndexName;
  std::size_t found = 0;
  if (fs::exists(index)) {
    const sweep::sweep_document sweep =
        sweep::from_json(core::read_json_file(index, core::kIndexJson), index.string());
    for (const auto& rel : sweep::done_reports(sweep)) {
      const fs::path p = dir / rel;
      in.reports.push_back(read_report(p));
      ++found;
    }
    in.sweeps.push_back({dir.string(), sweep.command_line});
    const auto all = sweep.points.size();
    if (found < all)
      in.notes.push_back(fmt::format("{}: {} of {} points are done; the others are left out",
                                     dir.string(), found, all));
  } else {
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(dir))
      // backends.json beside the reports holds the buyer's prices (analysis/backend_prices).
      if (e.is_regular_file() && e.path().extension() == ".json" &&
          e.path().filename() != "backends.json")
        files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const auto& p : files) {
      if (auto r = read_folder_file(p, in)) {
        in.reports.push_back(std::move(*r));
        ++found;
      }
    }
  }
  if (found == 0)
    throw usage_error(
        fmt::format("{}: no dlsize bench or checkpoint reports in this folder. valid: report "
                    "files, a folder of them, or a sweep folder with points done",
                    dir.string()));
}

} // namespace

std::vector<std::string> duplicate_runs(const std::vector<loaded_report>& reports) {
  std::vector<std::string> ids;
  std::map<std::string, std::vector<std::string>> files;
  for (const auto& r : reports) {
    // The run_id names a run (a checkpoint report's too); a report without one (older dlsize) is
    // known by its content.
    const std::string id =
        r.fields.run_id.has_value()
            ? *r.fields.run_id
            : fmt::format("content {:016x}", std::hash<std::string>{}(r.report.dump()));
    if (!files.count(id))
      ids.push_back(id);
    files[id].push_back(r.file);
  }
  std::vector<std::string> out;
  for (const auto& id : ids)
    if (files[id].size() > 1)
      out.push_back(
          fmt::format("{} are one run (run_id {}): copies, not repeats; give each run once",
                      fmt::join(files[id], ", "), id));
  return out;
}

void refuse_duplicate_runs(const std::vector<loaded_report>& reports) {
  const auto copies = duplicate_runs(reports);
  if (!copies.empty())
    throw usage_error(fmt::format("{}", fmt::join(copies, "; ")));
}

loaded_report loaded_report::of(std::string file, nlohmann::json report) {
  loaded_report r{std::move(file), std::move(report), std::nullopt, {}};
  if (!is_bench_report(r.report)) {
    r.fields = bench_report::fields_of(r.report, r.file);
    return r;
  }
  r.typed = bench_report::from_json(r.report, r.file);
  r.fields = *r.typed;
  return r;
}

std::vector<loaded_report> typed_reports(const std::vector<loaded_report>& reports) {
  std::vector<loaded_report> out;
  out.reserve(reports.size());
  for (const auto& r : reports)
    out.push_back(loaded_report::of(r.file, r.report));
  return out;
}

report_inputs load_reports(const std::vector<std::string>& args) {
  report_inputs in;
  for (const auto& a : args) {
    std::error_code ec;
    if (fs::is_directory(a, ec)) {
      load_folder(a, in);
    } else if (fs::exists(a, ec)) {
      in.reports.push_back(read_report(a));
    } else {
      throw usage_error(fmt::format("'{}' does not exist. valid: report files, a folder of "
                                    "reports, or a sweep folder",
                                    a));
    }
  }
  return in;
}

} // namespace dlsize::analysis
