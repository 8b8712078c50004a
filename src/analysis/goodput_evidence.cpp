#include "analysis/goodput_evidence.hpp"

#include <cmath>
#include <set>

#include <fmt/format.h>

#include "analysis/checkpoint_sizing.hpp"
#include "analysis/stats.hpp"
#include "config/workload.hpp"
#include "core/error.hpp"
#include "core/units.hpp"
#include "report/checkpoint_document.hpp"

namespace dlsize::analysis {
namespace {

// One path's rates: the best median of all ranks, and the median of the runs' slowest-rank
// rates where the runs measured one (dlsize checkpoint; a training run's pause has none).
phase_rates path_rates(const checkpoint_series_document& s, const checkpoint_path& p, bool write) {
  std::vector<double> slowest;
  for (const auto& r : s.runs) {
    const double v = write ? r.write_throughput : r.read_throughput;
    if (std::isfinite(v) && v > 0)
      slowest.push_back(v);
  }
  phase_rates rates;
  rates.bytes_per_s = p.best_bytes_per_s;
  std::string rank_text = "no per-rank rate";
  if (!slowest.empty()) {
    rates.rank_bytes_per_s = median(slowest);
    rank_text = fmt::format("slowest rank {} (median of {} run{})",
                            units::format_rate_both(rates.rank_bytes_per_s), slowest.size(),
                            slowest.size() == 1 ? "" : "s");
  }
  rates.source = fmt::format("measured by {} on {}: all ranks {} (best median), {}", s.source,
                             s.backend, units::format_rate_both(rates.bytes_per_s), rank_text);
  return rates;
}

// The job's checkpoint for a series: the profile block of its first checkpoint report, or the
// profile of the workload's name.
config::checkpoint_profile series_profile(const checkpoint_series_document& s,
                                          const std::vector<const loaded_report*>& evidence) {
  for (const auto* lr : evidence)
    if (!s.runs.empty() && lr->file == s.runs.front().file &&
        report::is_checkpoint_report(lr->report))
      return report::checkpoint_document_from_json(lr->report, lr->file).workload.checkpoint;
  return config::require_checkpoint(config::load_workload(s.workload));
}

// What a series cannot tell the model, said beside its section rather than hidden in it: one
// run has no spread, and runs at one rank count say nothing of how the storage scales.
std::vector<std::string> evidence_warnings(const checkpoint_series_document& s) {
  std::set<double> ranks;
  for (const auto& r : s.runs)
    ranks.insert(r.ranks);
  std::vector<std::string> out;
  if (s.runs.size() == 1)
    out.push_back(fmt::format("thin evidence: one run ({}): its rates have no run-to-run "
                              "spread; repeats would show how far they vary",
                              s.runs.front().file));
  if (ranks.size() == 1)
    out.push_back(fmt::format(
        "thin evidence: every run at {0:g} rank{1}: the model holds all ranks together to what "
        "{0:g} rank{1} measured at any count, so the loss at large counts is that of a storage "
        "no faster than this one; runs at more ranks (mpirun -np N dlsize checkpoint) would "
        "show how it scales",
        *ranks.begin(), *ranks.begin() == 1 ? "" : "s"));
  return out;
}

} // namespace

std::vector<const loaded_report*> checkpoint_evidence(const std::vector<loaded_report>& reports) {
  std::vector<const loaded_report*> out;
  for (const auto& lr : reports) {
    if (report::is_checkpoint_report(lr.report)
            ? checkpoint_exclusion(lr.report).empty()
            : lr.typed && lr.typed->complete() && has_training_checkpoints(*lr.typed))
      out.push_back(&lr);
  }
  return out;
}

phase_rates series_write_rates(const checkpoint_series_document& s) {
  return path_rates(s, *s.write, true);
}

phase_rates series_restore_rates(const checkpoint_series_document& s) {
  if (s.read)
    return path_rates(s, *s.read, false);
  phase_rates r = series_write_rates(s);
  r.source = "restore not measured: at the write's rates (" + r.source + ")";
  return r;
}

std::vector<goodput_document> series_goodput(const std::vector<checkpoint_series_document>& series,
                                             const std::vector<const loaded_report*>& evidence,
                                             const goodput_options& o,
                                             std::vector<std::string>& warnings) {
  std::vector<goodput_document> out;
  for (const auto& s : series) {
    if (!s.write)
      continue;
    goodput_setup g;
    try {
      g.profile = series_profile(s, evidence);
    } catch (const usage_error& e) {
      warnings.push_back(fmt::format("{}: no goodput: {}", s.backend, e.what()));
      continue;
    }
    g.workload = s.workload;
    g.backend = s.backend;
    g.checkpoint_source = fmt::format("the {} profile's checkpoint, unscaled", s.workload);
    g.write = series_write_rates(s);
    g.restore = series_restore_rates(s);
    o.apply_to(g);
    out.push_back(goodput_curve(g, o.counts));
    out.back().warnings = evidence_warnings(s);
  }
  return out;
}

checkpoint_series_document report_series(const std::string& file) {
  const report_inputs in = load_reports({file});
  const std::vector<loaded_report> typed = typed_reports(in.reports);
  const auto evidence = checkpoint_evidence(typed);
  if (evidence.empty())
    throw usage_error(fmt::format("--checkpoint-report {}: holds no measured checkpoint write. "
                                  "valid: a complete report of dlsize checkpoint (with "
                                  "--writes above 0) or of bench --checkpoint-every",
                                  file));
  const auto series = checkpoint_series(evidence);
  if (series.size() != 1 || !series.front().write)
    throw usage_error(fmt::format("--checkpoint-report {}: {} series of checkpoint writes. "
                                  "valid: one report, or a folder of one backend's runs",
                                  file, series.size()));
  return series.front();
}

} // namespace dlsize::analysis
