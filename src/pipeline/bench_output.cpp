#include "pipeline/bench_output.hpp"

#include <cstdio>

#include "core/error.hpp"
#include "pipeline/warm_storage.hpp"
#include "render/terminal_summary.hpp"
#include "report/bench_report.hpp"
#include "report/fs_separation.hpp"
#include "report/mlperf_validity.hpp"
#include "report/partial_report.hpp"
#include "report/report_io.hpp"
#include "report/rules_edition.hpp"
#include "report/workload_hash.hpp"

namespace dlsize::pipeline {
namespace {

// Readers the kernel holds (a hung server) are named once the report is safe on disk; the
// process then ends without them.
void name_abandoned(const std::vector<std::string>& abandoned) {
  for (const auto& a : abandoned)
    std::fprintf(stderr, "dlsize: stuck in the kernel: %s\n", a.c_str());
}

// The figures a finished report gets from outside the run: the cache emulation's, which ends
// here (the process leaves its cgroup before the report is written), and the warm epochs'
// storage.
void add_outside_figures(report::bench_report& report, cache_emulation* emulation) {
  if (emulation) {
    emulation->stop();
    report.cache_emulation = emulation->figures();
  }
  if (report.storage)
    report.storage->warm_epochs = warm_storage(report);
}

// The verdict as the report holds it.
report::validity_section validity_block(const report::validity& v) {
  report::validity_section s;
  s.rules_edition = report::to_string(v.edition);
  s.verdict = v.verdict();
  std::vector<report::validity_rule_row> rows;
  for (const auto& r : v.rules) {
    report::validity_rule_row row;
    row.rule = r.rule;
    row.verdict = report::to_string(r.verdict);
    row.measured = r.measured;
    row.source = r.source;
    row.judged_by = r.judge;
    rows.push_back(std::move(row));
  }
  s.rules = std::move(rows);
  return s;
}

// The report records which rules judged it; the summary prints that verdict.
void add_verdict(report::bench_report& report, const std::string& rules) {
  try {
    report.mlperf_validity = validity_block(
        report::mlperf_validity(report, report::parse_rules_edition(rules, "--rules")));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dlsize: no MLPerf Storage verdict (%s)\n", e.what());
  }
}

// The summary reads the report typed; whatever it finds, the report is still written.
void print_summary(const report::bench_report& report) {
  try {
    std::fputs(render::bench_summary(report).c_str(), stdout);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dlsize: no summary (%s); the report is written as measured\n", e.what());
  }
}

} // namespace

void bench_output::reserve(const std::string& workload) {
  if (m_opt.given.count("--out")) {
    m_out.emplace(m_opt.out, "--out");
    return;
  }
  m_out.emplace(default_output_path("bench", workload), "--out", true);
  std::fprintf(stderr, "bench: no --out given: the report goes to %s\n", m_out->path().c_str());
}

void bench_output::reserve_stand_in(const std::string& workload) {
  try {
    reserve(workload);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "dlsize: no report from rank 1 either: %s\n", e.what());
  }
}

void bench_output::record_fs_separation(const std::string& dataset_dir) {
  if (!m_out)
    return;
  m_fs_separation = report::field<report::fs_separation_section>::of(
      report::fs_separation_of(dataset_dir, m_out->path(), "dataset"));
}

status_hook bench_output::partial_writer(double interval_s) {
  if (!m_out)
    return {};
  output_file* out = &*m_out;
  return {interval_s, [out, cmdline = m_opt.command_line, config = m_config,
                       interval_s](double el, const run_counters& c) {
            const auto r = report::partial_report(report::new_bench_report(cmdline), config,
                                                  {el, c.bytes, c.samples}, interval_s);
            out->write_partial(r.to_json().dump(2) + "\n");
          }};
}

int bench_output::finish(const nlohmann::json& report, bool failed,
                         const std::vector<std::string>& abandoned, cache_emulation* emulation) {
  std::optional<report::bench_report> typed;
  if (!report.is_null())
    typed = report::bench_report::from_json(report);
  return finish(std::move(typed), failed, abandoned, emulation);
}

int bench_output::finish(std::optional<report::bench_report> typed, bool failed,
                         const std::vector<std::string>& abandoned, cache_emulation* emulation) {
  if (!typed) {
    name_abandoned(abandoned);
    return failed ? 1 : 0; // not rank 0: rank 0 writes the job's report
  }
  report::bench_report& report = *typed;
  add_outside_figures(report, emulation);
  if (m_out && m_fs_separation)
    report.fs_separation = *m_fs_separation;
  report.workload_hash = report::workload_hash_of(report);
  add_verdict(report, m_opt.rules);
  if (!m_opt.quiet)
    print_summary(report);
  report.config_given = m_opt.given_config;
  const output_place where = m_out->commit(report.to_json().dump(2) + "\n");
  if (!where.path.empty())
    std::printf("report: %s\n", where.path.c_str());
  std::fflush(stdout);
  name_abandoned(abandoned);
  if (where.fell_back)
    failed = true;
  if (report.verify)
    for (const auto& p : report.verify->problems.value_or({}))
      std::fprintf(stderr, "mismatch: %s\n", p.c_str());
  if (!failed)
    return 0;
  if (!report.complete())
    std::fprintf(stderr, "dlsize: bench %s: %s\n", report.status_text().c_str(),
                 report.reason.value_or("").c_str());
  return 1;
}

int bench_output::stopped_before_run(const std::string& why) {
  report::bench_report r = report::stopped_before_run_report(
      report::new_bench_report(m_opt.command_line), m_config, why);
  r.config_given = m_opt.given_config;
  const output_place where = m_out->commit(r.to_json().dump(2) + "\n");
  if (!where.path.empty())
    std::printf("report: %s\n", where.path.c_str());
  std::fflush(stdout);
  std::fprintf(stderr, "dlsize: bench incomplete: %s\n", r.reason.value_or("").c_str());
  return 1;
}

} // namespace dlsize::pipeline
