#include "analysis/point_validity.hpp"

#include <algorithm>
#include <ctime>

#include <fmt/format.h>

#include "analysis/stats.hpp"
#include "report/bench_report.hpp"

namespace dlsize::analysis {
namespace {

using report::rule_verdict;
using report::validity_rule;

constexpr const char* kGuidelines = "MLPerf Storage submission guidelines v2.0";

validity_rule runs_rule(const point_validity& p, const std::string& judged_by) {
  validity_rule v;
  v.rule = fmt::format("{} runs after a warm-up", kMlperfRunsPerPoint);
  v.source = fmt::format("{}: §6.6 Caching (a warm-up run before the 5 test runs) and §3 "
                         "Definitions (a benchmark result is the mean of 5 run results)",
                         kGuidelines);
  v.judge = judged_by + " (a point's complete runs; of more than 5, the first is the warm-up)";
  const std::size_t n = p.counted.size();
  if (p.warm_up)
    v.measured = fmt::format("{} complete runs: the first, {}, is the warm-up; {} counted", n + 1,
                             *p.warm_up, n);
  else if (n >= kMlperfRunsPerPoint)
    v.measured = fmt::format("{} complete runs counted (the warm-up before them not given)", n);
  else
    v.measured = fmt::format("{} complete run{}; {} are needed after a warm-up", n,
                             n == 1 ? "" : "s", kMlperfRunsPerPoint);
  if (!p.left_out.empty())
    v.measured += fmt::format("; {} incomplete left out", p.left_out.size());
  v.verdict = n >= kMlperfRunsPerPoint ? rule_verdict::pass : rule_verdict::fail;
  return v;
}

// v3.0: 6 complete runs, the first the warm-up, so 5 counted and a warm-up taken.
validity_rule runs_rule_v3(const point_validity& p, const std::string& judged_by) {
  validity_rule v = runs_rule(p, judged_by);
  v.rule = fmt::format("{} runs, the first the warm-up", kMlperfV3RunsPerPoint);
  v.source = fmt::format("{}: §2.1.17 runTimestamps (exactly 6 runs; the 1st is the warm-up, "
                         "not in the reported performance)",
                         report::kV3RulesDoc);
  v.judge = judged_by + " (a point's last 6 complete runs in time, the first of them the warm-up)";
  v.verdict = p.warm_up && p.counted.size() >= kMlperfRunsPerPoint ? rule_verdict::pass
                                                                   : rule_verdict::fail;
  if (!p.warm_up && p.counted.size() >= kMlperfRunsPerPoint)
    v.measured += "; v3.0 needs the warm-up among them";
  return v;
}

validity_rule spread_rule(const std::vector<double>& samples_per_s, double& spread,
                          const std::string& judged_by) {
  validity_rule v;
  v.rule = fmt::format("runs within {:g} % of each other", 100 * kMlperfMaxRunSpread);
  v.source = fmt::format("{}: §6.7 Replicability is mandatory (replicated results within 5 % "
                         "within 5 tries)",
                         kGuidelines);
  v.judge = judged_by + " (samples/s: (max − min) ÷ median over the counted runs)";
  const value_stats s = stats_of(samples_per_s);
  if (s.count < 2 || !(s.median > 0)) {
    v.measured = "fewer than two counted runs with samples/s";
    return v;
  }
  spread = (s.max - s.min) / s.median;
  v.measured = fmt::format("samples/s {:.6g} to {:.6g}, median {:.6g}: {:.1f} %", s.min, s.max,
                           s.median, 100 * spread);
  v.verdict = spread <= kMlperfMaxRunSpread ? rule_verdict::pass : rule_verdict::fail;
  return v;
}

validity_rule each_run_rule(const std::vector<const point_run*>& runs, const std::string& judged_by,
                            report::rules_edition edition) {
  validity_rule v;
  v.rule = "each run valid by itself";
  v.source = edition == report::rules_edition::v3
                 ? fmt::format("{}, per run: §3.1.2, §3.3.6, §3.4.2, §3.6.2 (docs/metrics.md, "
                               "MLPerf Storage validity of a run)",
                               report::kV3RulesDoc)
                 : "MLPerf Storage v1.0 rules, per run (docs/metrics.md, MLPerf Storage validity "
                   "of a run)";
  v.judge = "dlsize bench (its summary, per run); " + judged_by;
  std::size_t valid = 0, invalid = 0;
  std::string failed;
  for (const auto* r : runs) {
    if (r->run.proven())
      ++valid;
    if (r->run.valid())
      continue;
    if (++invalid > 3) // the first few name the rules; the count says the rest
      continue;
    std::vector<std::string> names;
    for (const auto& rule : r->run.rules)
      if (rule.verdict == rule_verdict::fail)
        names.push_back(rule.rule);
    failed += fmt::format("; {} fails {}", r->file, fmt::join(names, ", "));
  }
  if (runs.empty()) {
    v.measured = "no counted runs";
    return v;
  }
  v.measured = fmt::format("by {}: {} of {} runs VALID, {} INVALID, {} not proven{}",
                           edition == report::rules_edition::v3
                               ? "dataset size, epochs, accelerators per node and file systems"
                               : "steps per epoch, dataset against RAM and epochs",
                           valid, runs.size(), invalid, runs.size() - valid - invalid, failed);
  v.verdict = invalid > 0            ? rule_verdict::fail
              : valid == runs.size() ? rule_verdict::pass
                                     : rule_verdict::not_judged;
  return v;
}

std::string clock_text(double unix_s) {
  const auto t = static_cast<std::time_t>(std::floor(unix_s));
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S", &tm);
  return fmt::format("{}.{:03.0f}Z", buf, std::floor(1e3 * (unix_s - std::floor(unix_s))));
}

bool has_times(const point_run* r) {
  return std::isfinite(r->start_s) && std::isfinite(r->end_s) && r->end_s >= r->start_s;
}

// The first gap that breaks the run of runs (sorted by start), or an empty string.
std::string broken_gap(const std::vector<const point_run*>& runs, double& longest_gap) {
  for (std::size_t i = 1; i < runs.size(); ++i) {
    const point_run &a = *runs[i - 1], &b = *runs[i];
    const double gap = b.start_s - a.end_s;
    longest_gap = std::max(longest_gap, gap);
    if (gap < 0)
      return fmt::format("{} started {:.1f} s before {} ended (they overlap)", b.file, -gap,
                         a.file);
    const double shorter = std::min(a.end_s - a.start_s, b.end_s - b.start_s);
    if (gap >= shorter)
      return fmt::format("{:.1f} s between {} (ended {}) and {} (started {}): not less than the "
                         "shorter run's {:.1f} s",
                         gap, a.file, clock_text(a.end_s), b.file, clock_text(b.start_s), shorter);
  }
  return {};
}

// v3.0 §2.1.18a: of more than 6 complete runs, 6 consecutive ones are judged; dlsize takes the
// last 6 in time (in the order given where a run has no times), never a choice by result, and
// lists the earlier ones as left out.
void pick_last_consecutive(std::vector<const point_run*>& complete, point_validity& p) {
  if (complete.size() <= kMlperfV3RunsPerPoint)
    return;
  if (std::all_of(complete.begin(), complete.end(), has_times))
    std::stable_sort(complete.begin(), complete.end(), [](const point_run* a, const point_run* b) {
      return a->start_s < b->start_s;
    });
  const auto drop = static_cast<std::ptrdiff_t>(complete.size() - kMlperfV3RunsPerPoint);
  for (auto it = complete.begin(); it != complete.begin() + drop; ++it)
    p.left_out.push_back(
        {(*it)->file, fmt::format("before the last {} complete runs, which v3.0 judges (§2.1.18a "
                                  "runPickingSubsets: 6 consecutive runs)",
                                  kMlperfV3RunsPerPoint)});
  complete.erase(complete.begin(), complete.begin() + drop);
}

} // namespace

validity_rule consecutive_rule(const std::vector<const point_run*>& judged,
                               const std::vector<const point_run*>& others,
                               const std::string& judged_by) {
  validity_rule v;
  v.rule = "runs consecutive (each gap shorter than a run, no other run between)";
  v.source =
      fmt::format("{}: §2.1.18 runTimestampGap, §2.1.18a runPickingSubsets", report::kV3RulesDoc);
  v.judge = judged_by + " (each run's report: created_unix_s, and summary.wall_s before it)";
  std::vector<const point_run*> runs;
  for (const auto* r : judged) {
    if (!has_times(r)) {
      v.measured =
          fmt::format("{} records no start and end (created_unix_s, summary.wall_s)", r->file);
      return v;
    }
    runs.push_back(r);
  }
  if (runs.size() < 2) {
    v.measured = "fewer than two runs to place in time";
    return v;
  }
  std::sort(runs.begin(), runs.end(),
            [](const point_run* a, const point_run* b) { return a->start_s < b->start_s; });
  double longest = 0;
  const std::string broken = broken_gap(runs, longest);
  if (!broken.empty()) {
    v.measured = broken;
    v.verdict = rule_verdict::fail;
    return v;
  }
  const double first = runs.front()->start_s, last = runs.back()->end_s;
  for (const auto* o : others)
    if (has_times(o) && o->end_s > first && o->start_s < last) {
      v.measured = fmt::format("{} ({}, left out) ran between {} and {}", o->file,
                               clock_text(o->start_s), runs.front()->file, runs.back()->file);
      v.verdict = rule_verdict::fail;
      return v;
    }
  v.measured = fmt::format("{} runs from {} to {}, the longest gap {:.1f} s", runs.size(),
                           clock_text(first), clock_text(last), longest);
  v.verdict = rule_verdict::pass;
  return v;
}

point_validity judge_point(const std::vector<point_run>& runs, const std::string& judged_by,
                           report::rules_edition edition) {
  point_validity p;
  p.rules.edition = edition;
  std::vector<const point_run*> complete, incomplete;
  for (const auto& r : runs) {
    if (r.complete) {
      complete.push_back(&r);
    } else { // an incomplete run measured part of a run: it neither counts nor warms up
      p.left_out.push_back({r.file, "incomplete"});
      incomplete.push_back(&r);
    }
  }
  if (edition == report::rules_edition::v3)
    pick_last_consecutive(complete, p);
  const std::vector<const point_run*> judged = complete; // the warm-up with the counted
  if (complete.size() > kMlperfRunsPerPoint) {
    p.warm_up = complete.front()->file;
    complete.erase(complete.begin());
  }
  std::vector<double> samples_per_s;
  for (const auto* r : complete) {
    p.counted.push_back(r->file);
    samples_per_s.push_back(r->samples_per_s);
  }
  p.rules.rules = {
      edition == report::rules_edition::v3 ? runs_rule_v3(p, judged_by) : runs_rule(p, judged_by),
      spread_rule(samples_per_s, p.spread, judged_by), each_run_rule(complete, judged_by, edition)};
  if (edition == report::rules_edition::v3)
    p.rules.rules.push_back(consecutive_rule(judged, incomplete, judged_by));
  return p;
}

point_run point_run_of(const loaded_report& r, report::rules_edition edition) {
  point_run p;
  p.file = r.file;
  p.complete = r.typed.has_value() && r.typed->complete();
  if (!r.typed)
    return p;
  p.samples_per_s = report::bench_report::number(report::or_empty(r.typed->summary).samples_per_s);
  const double wall = report::bench_report::number(report::or_empty(r.typed->summary).wall_s);
  const double end = report::bench_report::number(r.typed->created_unix_s);
  if (std::isfinite(wall) && std::isfinite(end)) {
    p.start_s = end - wall;
    p.end_s = end;
  }
  p.run = report::mlperf_validity(*r.typed, edition);
  return p;
}

} // namespace dlsize::analysis
