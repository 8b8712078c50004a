#include "analysis/checkpoint_sizing.hpp"

#include <cmath>
#include <map>
#include <optional>
#include <set>

#include <fmt/format.h>

#include "analysis/bandwidth_fit.hpp"
#include "report/backend_identity.hpp"
#include "report/checkpoint_document.hpp"
#include "report/run_identity.hpp"

namespace dlsize::analysis {
namespace {

constexpr const char* kStandalone = "dlsize checkpoint";
constexpr const char* kTraining = "bench --checkpoint-every";

const nlohmann::json& section(const nlohmann::json& j, const char* key) {
  static const nlohmann::json empty = nlohmann::json::object();
  const auto it = j.find(key);
  return it != j.end() && it->is_object() ? *it : empty;
}

double number_at(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_number() ? it->get<double>() : std::nan("");
}

std::string string_at(const nlohmann::json& j, const char* key) {
  const auto it = j.find(key);
  return it != j.end() && it->is_string() ? it->get<std::string>() : "";
}

// One report's figures: a write (and a restore, for dlsize checkpoint) at a rank count.
struct checkpoint_run {
  const loaded_report* from = nullptr;
  double ranks = 1, bytes_per_checkpoint = 0;
  double write_bytes_per_s = std::nan(""), write_throughput = std::nan("");
  double write_duration_s = std::nan("");
  double read_bytes_per_s = std::nan(""), read_throughput = std::nan("");
  double read_duration_s = std::nan("");
};

struct checkpoint_group {
  std::string source, workload;
  report::backend_identity identity;
  double scale = 1;
  bool subset = false;
  std::vector<checkpoint_run> runs;
};

// A phase's figures when it ran at least once: aggregate bytes/s (total bytes over total time),
// the slowest rank's mean rate (MLPerf Storage's), the mean duration.
void phase_of(const report::checkpoint_phase_figures& phase, double& bytes_per_s,
              double& throughput, double& duration) {
  if (phase.count == 0)
    return;
  bytes_per_s = phase.bytes_per_s;
  throughput = phase.throughput_bytes_per_s;
  duration = phase.duration_s.mean;
}

// The --label the run was given (the effective options'), or "".
std::string given_label(const loaded_report& lr) {
  const nlohmann::json label = lr.fields.option("label");
  return label.is_string() ? label.get<std::string>() : "";
}

// A dlsize checkpoint report, read as its typed document: a write and a restore at a rank count.
checkpoint_group standalone_group(const loaded_report& lr, checkpoint_run& run) {
  const report::checkpoint_document d = report::checkpoint_document_from_json(lr.report, lr.file);
  const report::checkpoint_section& c = d.checkpoint;
  checkpoint_group g;
  g.source = kStandalone;
  g.workload = d.workload.name;
  g.scale = c.scale;
  g.subset = c.subset;
  g.identity.fs_type = c.fs_type;
  g.identity.cache_mode = c.cache_mode;
  const std::string label = given_label(lr);
  g.identity.label = !label.empty()
                         ? label
                         : fmt::format("{} ({})", c.dir, c.fs_type.empty() ? "unknown" : c.fs_type);
  run.ranks = static_cast<double>(c.ranks);
  run.bytes_per_checkpoint = static_cast<double>(c.bytes_per_checkpoint);
  phase_of(c.write, run.write_bytes_per_s, run.write_throughput, run.write_duration_s);
  phase_of(c.read, run.read_bytes_per_s, run.read_throughput, run.read_duration_s);
  return g;
}

// A bench report's `checkpoints` block (bench --checkpoint-every): writes only, at its ranks.
checkpoint_group training_group(const loaded_report& lr, checkpoint_run& run) {
  using report::bench_report;
  using report::or_empty;
  const bench_report& r = lr.fields;
  const report::checkpoints_section& c = or_empty(r.checkpoints);
  checkpoint_group g;
  g.source = kTraining;
  g.workload = or_empty(r.workload).name.value_or("");
  g.scale = bench_report::number(c.scale);
  g.identity.cache_mode = or_empty(r.io).cache_mode.value_or("direct");
  const std::string label = given_label(lr);
  g.identity.label = !label.empty() ? label : c.dir.value_or("");
  const double ranks = bench_report::number(or_empty(r.topology).ranks);
  run.ranks = std::isfinite(ranks) ? ranks : 1;
  run.bytes_per_checkpoint = bench_report::number(c.bytes_per_checkpoint);
  run.write_bytes_per_s = bench_report::number(c.write_bytes_per_s);
  run.write_duration_s = bench_report::number(c.mean_seconds);
  return g;
}

checkpoint_group group_of(const loaded_report& lr, checkpoint_run& run) {
  checkpoint_group g =
      is_checkpoint_report(lr.report) ? standalone_group(lr, run) : training_group(lr, run);
  run.from = &lr;
  return g;
}

// One path (write or restore) of a series: the shared fit, the measured table, and the runs'
// fitted values and residuals (by run index; none for runs without this path).
std::optional<checkpoint_path> path_of(const std::vector<checkpoint_run>& runs, bool write,
                                       double alpha, std::vector<checkpoint_run_row>& rows) {
  std::vector<bandwidth_run> bw;
  std::vector<std::size_t> at;
  std::map<double, std::vector<double>> durations;
  for (std::size_t i = 0; i < runs.size(); ++i) {
    const double v = write ? runs[i].write_bytes_per_s : runs[i].read_bytes_per_s;
    if (!std::isfinite(v))
      continue;
    bw.push_back({runs[i].from->file, runs[i].ranks, v});
    at.push_back(i);
    durations[runs[i].ranks].push_back(write ? runs[i].write_duration_s : runs[i].read_duration_s);
  }
  if (bw.empty())
    return std::nullopt;
  const bandwidth_fit f = fit_bandwidth(bw, "rank", alpha);
  for (std::size_t k = 0; k < at.size(); ++k) {
    auto& row = rows[at[k]];
    auto& fitted = write ? row.write_fitted : row.read_fitted;
    auto& residual = write ? row.write_residual : row.read_residual;
    fitted = f.line ? std::optional<double>(f.line->predict(bw[k].count)) : std::nullopt;
    residual = f.line ? std::optional<double>(f.line->residuals[k]) : std::nullopt;
  }
  checkpoint_path path;
  for (const auto& c : f.counts)
    path.measured.push_back({c.count, c.runs, c.bytes_per_s, stats_of(durations[c.count])});
  if (f.line)
    path.fit = fit_with_curve(*f.line, f.counts.back().count * 1.1);
  path.knee = f.knee;
  path.best_bytes_per_s = f.best_bytes_per_s;
  path.warnings = f.warnings;
  return path;
}

checkpoint_series_document series_of(const checkpoint_group& g, const std::string& backend,
                                     double alpha) {
  checkpoint_series_document s;
  std::vector<double> bytes;
  for (const auto& r : g.runs) {
    bytes.push_back(r.bytes_per_checkpoint);
    checkpoint_run_row row;
    row.file = r.from->file;
    row.ranks = r.ranks;
    row.bytes_per_checkpoint = r.bytes_per_checkpoint;
    row.write_bytes_per_s = r.write_bytes_per_s;
    row.write_throughput = r.write_throughput;
    row.write_duration_s = r.write_duration_s;
    row.read_bytes_per_s = r.read_bytes_per_s;
    row.read_throughput = r.read_throughput;
    row.read_duration_s = r.read_duration_s;
    s.runs.push_back(std::move(row));
  }
  std::set<std::string> may_differ = report::backend_settings();
  may_differ.insert({"dir", "out", "label", "accelerators", "accelerators-per-rank", "seed"});
  const auto& first = *g.runs.front().from;
  for (const auto& r : g.runs)
    if (r.from != &first)
      for (const auto& w : report::setting_differences(first.fields, first.file, r.from->fields,
                                                       r.from->file, may_differ))
        s.warnings.push_back(w);
  s.write = path_of(g.runs, true, alpha, s.runs);
  s.read = path_of(g.runs, false, alpha, s.runs);
  for (const auto* p : {&s.write, &s.read})
    if (*p)
      for (const auto& w : (*p)->warnings)
        s.warnings.push_back(fmt::format("{}: {}", p == &s.write ? "write" : "restore", w));
  if (!s.read)
    s.warnings.push_back(g.source == kTraining
                             ? "restore not measured: bench --checkpoint-every writes only"
                             : "restore not measured: every run had --reads 0");
  s.source = g.source;
  s.workload = g.workload;
  s.backend = backend;
  s.label = g.identity.label;
  s.backend_identity = g.identity.key();
  s.cache_mode = g.identity.cache_mode;
  s.scale = g.scale;
  s.subset = g.subset;
  s.bytes_per_checkpoint = median(bytes);
  return s;
}

} // namespace

bool is_checkpoint_report(const nlohmann::json& r) {
  return r.is_object() && string_at(r, "kind") == "checkpoint";
}

bool has_training_checkpoints(const report::bench_report& r) {
  return r.checkpoints && report::bench_report::number(r.checkpoints->count) > 0;
}

std::string checkpoint_exclusion(const nlohmann::json& r) {
  const std::string status = string_at(r, "status");
  if (status != "complete")
    return fmt::format("status {}: {}", status.empty() ? "none" : status, string_at(r, "reason"));
  const auto& c = section(r, "checkpoint");
  if (!(number_at(section(c, "write"), "count") > 0) &&
      !(number_at(section(c, "read"), "count") > 0))
    return "no checkpoint written or read";
  if (!(number_at(c, "ranks") > 0))
    return "no checkpoint.ranks";
  return "";
}

std::vector<checkpoint_series_document>
checkpoint_series(const std::vector<const loaded_report*>& reports, double alpha) {
  std::vector<checkpoint_group> groups;
  std::map<std::string, std::size_t> by_key;
  for (const auto* lr : reports) {
    checkpoint_run run;
    checkpoint_group g = group_of(*lr, run);
    const std::string key =
        fmt::format("{}|{}|{}|{}|{}", g.source, g.workload, g.identity.key(), g.scale, g.subset);
    auto it = by_key.find(key);
    if (it == by_key.end()) {
      it = by_key.emplace(key, groups.size()).first;
      groups.push_back(g);
    }
    groups[it->second].runs.push_back(run);
  }
  std::vector<report::backend_identity> ids;
  for (const auto& g : groups)
    ids.push_back(g.identity);
  const auto names = report::distinct_names(ids);
  std::vector<checkpoint_series_document> out;
  for (std::size_t i = 0; i < groups.size(); ++i)
    out.push_back(series_of(groups[i], names[i], alpha));
  return out;
}

// Which paths the reports measured: the read path (training runs) and the write path
// (checkpoints), each with what would measure it when it is missing.
std::pair<sizing_path, sizing_path> sizing_paths(bool read, bool write) {
  return {{read, read ? "bandwidth of the reads against accelerators (series)"
                      : "not measured: no complete training run among the reports (dlsize "
                        "bench --accelerator emulated:TYPE, or a sweep of them)"},
          {write, write ? "checkpoint write and restore bandwidth against ranks "
                          "(checkpoint_series)"
                        : "not measured: no checkpoint evidence among the reports (dlsize "
                          "checkpoint, bench --checkpoint-every, or a sweep with \"command\": "
                          "\"checkpoint\")"}};
}

} // namespace dlsize::analysis
