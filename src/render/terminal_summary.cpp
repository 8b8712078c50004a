#include "render/terminal_summary.hpp"

#include <fmt/format.h>

#include "core/units.hpp"
#include "report/backend_identity.hpp"
#include "report/limit_verdict.hpp"
#include "report/mlperf_validity.hpp"

namespace dlsize::render {
namespace {

using report::bench_report;
using report::latency_summary;

double ms(const report::field<double>& s) {
  return s.value_or(0) * 1e3;
}

std::string status_line(const bench_report& r) {
  const std::string reason = r.reason.value_or("");
  return fmt::format("  status      {}{}\n", r.status_text(), reason.empty() ? "" : ": " + reason);
}

std::string read_line(const report::summary_section& s) {
  return fmt::format("  read        {} in {:.2f} s: {}",
                     units::format_bytes_binary(static_cast<double>(s.read_bytes.value_or(0))),
                     s.wall_s.value_or(0), units::format_rate_both(s.read_bytes_per_s.value_or(0)));
}

double percent(const report::field<double>& f) {
  return 100 * f.value_or(0);
}

std::string warnings_block(const bench_report& r) {
  std::string out;
  for (const auto& w : r.warnings.value_or({}))
    out += fmt::format("  warning     {}\n", w);
  return out;
}

std::string stopped_line(const bench_report& r) {
  if (!r.summary || !r.summary->epochs_completed.has_value())
    return "";
  const auto done = *r.summary->epochs_completed, planned = r.summary->epochs.value_or(0);
  return done < planned ? fmt::format("  stopped     after {} of {} epochs\n", done, planned) : "";
}

std::string validity_block(const bench_report& r) {
  // The edition bench judged the run by (the report's mlperf_validity); v3 for older reports.
  report::rules_edition edition = report::kDefaultRules;
  if (r.mlperf_validity)
    edition = report::parse_rules_edition(r.mlperf_validity->rules_edition.value_or("v3"),
                                          "mlperf_validity");
  const report::validity v = report::mlperf_validity(r, edition);
  const bool v3 = edition == report::rules_edition::v3;
  // The rules over a point's runs need the other runs: size and compare judge them, per point.
  // v1 and v2 print what dlsize printed before editions existed, word for word.
  std::string out = fmt::format(
      "  MLPerf Storage validity of this run{}: {} (the rules of a point, {} within 5 % of each "
      "other, are judged over its runs by dlsize size and dlsize compare: mlperf_validity of "
      "each point)\n",
      v3 ? " (v3 rules)" : "", v.verdict(),
      v3 ? "6 runs of which the first is the warm-up," : "5 runs after a warm-up");
  for (const auto& rule : v.rules)
    out += fmt::format("    {:<10}  {}: {}\n                source: {}; judged by: {}\n",
                       report::to_string(rule.verdict), rule.rule, rule.measured, rule.source,
                       rule.judge);
  return out;
}

} // namespace

std::string storage_summary(const bench_report& r) {
  const report::io_section io = r.io.value_or(report::io_section{});
  const report::summary_section s = r.summary.value_or(report::summary_section{});
  const latency_summary lat = io.latency.value_or(latency_summary{});
  const report::cpu_summary cpu = s.cpu_utilization.value_or(report::cpu_summary{});
  const std::string uncached = io.uncached_method.value_or("");
  std::string out = fmt::format(
      "engine {} ({} cache{}), readers {}, queue depth {}, request {}\n"
      "{}\n"
      "  samples/s   {:.1f}{}\n"
      "  latency     p50 {:.3f} ms  p90 {:.3f} ms  p99 {:.3f} ms  p99.9 {:.3f} ms (per request)\n"
      "  cpu         process {:.1f} % of one core, host {:.1f} %; {:.3f} CPU s per GiB\n"
      "{}",
      io.engine.value_or("?"), io.cache_mode.value_or("?"), uncached.empty() ? "" : ", " + uncached,
      io.readers.value_or(0), io.queue_depth.value_or(0),
      units::format_bytes_binary(static_cast<double>(io.request_size.value_or(0))), read_line(s),
      s.samples_per_s.value_or(0),
      s.files_per_s.has_value() ? fmt::format("   files/s {:.1f}", *s.files_per_s) : "",
      ms(lat.p50_s), ms(lat.p90_s), ms(lat.p99_s), ms(lat.p999_s), percent(cpu.process),
      percent(cpu.host), s.cpu_s_per_gib.value_or(0), status_line(r));
  if (r.verify)
    out += fmt::format("  verify      {} records checked, {} mismatches\n",
                       r.verify->records_checked.value_or(0), r.verify->mismatches.value_or(0));
  return out + stopped_line(r) + warnings_block(r) + validity_block(r);
}

namespace {

std::string training_header(const bench_report& r) {
  const report::workload_section w = r.workload.value_or(report::workload_section{});
  const report::accelerator_section a = w.accelerator.value_or(report::accelerator_section{});
  const report::summary_section s = r.summary.value_or(report::summary_section{});
  const report::topology_section t = r.topology.value_or(report::topology_section{});
  std::string device;
  if (r.accelerators && !r.accelerators->empty())
    device = r.accelerators->front().device.value_or("");
  std::string out = fmt::format("{} on {} × {} (batch {}, {:.4g} s per step), {} epochs × {} "
                                "steps\n",
                                w.name.value_or("?"), t.accelerators.value_or(0), device,
                                a.batch_size.value_or(0), a.compute_time_s.value_or(0),
                                s.epochs.value_or(0), s.steps_per_epoch.value_or(0));
  if (t.ranks.value_or(1) > 1)
    out += fmt::format("  topology    {} nodes, {} ranks, {} accelerators per rank ({})\n",
                       t.nodes.value_or(1), t.ranks.value_or(1),
                       t.accelerators_per_rank.value_or(0), t.communicator.value_or("?"));
  if (t.allreduce.has_value())
    out += fmt::format("  allreduce   {} over {} x {}: {:.3f} ms exposed per step, {:.1f} % of "
                       "the time; storage AU {:.1f} % (the verdict's)\n",
                       t.allreduce->algorithm.value_or("?"), t.allreduce->nodes.value_or(0),
                       t.allreduce->accelerators_per_node.value_or(0),
                       1e3 * t.allreduce->exposed_s.value_or(0.0),
                       100 * s.comm_time_fraction.value_or(0.0), percent(s.storage_au));
  return out;
}

bool allreduce_modelled(const bench_report& r) {
  return r.topology && r.topology->allreduce.has_value();
}

// Samples over the run's wall: the window the read rate is over.
double whole_run_samples_per_s(const report::summary_section& s) {
  const double wall = s.wall_s.value_or(0);
  return wall > 0 ? static_cast<double>(s.samples.value_or(0)) / wall : 0.0;
}

std::string au_text(const report::summary_section& s, bool allreduce) {
  if (!s.accelerator_utilization.has_value())
    return "not measured (fewer than two steps)";
  return fmt::format("{:.1f} %{} (threshold {:.0f} %: {}), lowest accelerator {:.1f} %",
                     percent(s.accelerator_utilization),
                     allreduce ? fmt::format(", storage AU {:.1f} %", percent(s.storage_au)) : "",
                     percent(s.au_threshold), s.au_pass.value_or(false) ? "PASS" : "FAIL",
                     percent(s.accelerator_utilization_min));
}

std::string limit_block(const report::summary_section& s) {
  return s.limited_by.has_value() ? report::limit_line(*s.limited_by) : "";
}

// --checkpoint-every optimal: the interval the goodput model chose, and why.
std::string interval_line(const report::checkpoints_section& c) {
  return c.interval_choice && c.interval_choice->reason.has_value()
             ? "  interval    " + *c.interval_choice->reason + "\n"
             : "";
}

// bench --checkpoint-every: what the checkpoints cost the run's AU, and its AU without them.
std::string checkpoint_line(const bench_report& r, const report::summary_section& s) {
  if (!r.checkpoints)
    return "";
  const auto& c = *r.checkpoints;
  const double without = c.accelerator_utilization_excluding_checkpoints.value_or(
      s.accelerator_utilization_excluding_checkpoints.value_or(std::nan("")));
  return fmt::format(
             "  checkpoints {} written every {}, {:.3f} s each at {}: AU lost to them {:.1f} %, AU "
             "without them {:.1f} % (threshold {:.0f} %: {})\n",
             c.count.value_or(0), c.every.value_or("?"), c.mean_seconds.value_or(0),
             units::format_rate_both(c.write_bytes_per_s.value_or(0)),
             100 * c.au_lost_to_checkpoints.value_or(0), 100 * without, percent(s.au_threshold),
             std::isfinite(without) && without >= s.au_threshold.value_or(1) ? "PASS" : "FAIL") +
         interval_line(c);
}

} // namespace

std::string training_summary(const bench_report& r) {
  const report::summary_section s = r.summary.value_or(report::summary_section{});
  const report::io_section io = r.io.value_or(report::io_section{});
  const latency_summary wait = s.data_wait.value_or(latency_summary{});
  const latency_summary lat = io.latency.value_or(latency_summary{});
  const report::cpu_summary cpu = s.cpu_utilization.value_or(report::cpu_summary{});
  const bool multi = r.topology && r.topology->ranks.value_or(1) > 1;
  return training_header(r) +
         fmt::format(
             "  AU          {}"
             "  samples/s   {:.1f} total, {:.1f} per accelerator (each accelerator's steps "
             "after its first)\n"
             "{}, {:.1f} samples/s over the same {:.2f} s; demand at AU 100 %: {}\n"
             "  data wait   p50 {:.3f} ms  p90 {:.3f} ms  p99 {:.3f} ms  max {:.3f} ms (per step)\n"
             "  latency     p50 {:.3f} ms  p99 {:.3f} ms (per request, {} {} cache)\n"
             "  cpu         {} {:.1f} % of one core, host {:.1f} %; {:.3f} CPU s per GiB, {:.4f} "
             "per 1,000 samples\n"
             "{}",
             au_text(s, allreduce_modelled(r)) + "\n" + checkpoint_line(r, s),
             s.samples_per_s.value_or(0), s.samples_per_s_per_accelerator.value_or(0), read_line(s),
             whole_run_samples_per_s(s), s.wall_s.value_or(0),
             units::format_rate_both(s.demand_bytes_per_s.value_or(0)), ms(wait.p50_s),
             ms(wait.p90_s), ms(wait.p99_s), ms(wait.max_s), ms(lat.p50_s), ms(lat.p99_s),
             io.engine.value_or("?"), io.cache_mode.value_or("?"), multi ? "all ranks" : "process",
             percent(cpu.process), percent(cpu.host), s.cpu_s_per_gib.value_or(0),
             s.cpu_s_per_1000_samples.value_or(0), status_line(r)) +
         limit_block(s) + stopped_line(r) + warnings_block(r) + validity_block(r);
}

std::string bench_summary(const bench_report& r) {
  const std::string summary =
      r.workload && r.workload->accelerator ? training_summary(r) : storage_summary(r);
  // The backend's name under the first line, so that every summary says which storage it
  // measured.
  const auto nl = summary.find('\n');
  const std::string line =
      fmt::format("  backend     {}\n", report::backend_identity_of(r).display_name());
  return nl == std::string::npos ? summary + "\n" + line
                                 : summary.substr(0, nl + 1) + line + summary.substr(nl + 1);
}

} // namespace dlsize::render
