#include "report/mlperf_validity.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/units.hpp"

namespace dlsize::report {
namespace {

constexpr const char* kRules = "MLPerf Storage v1.0 rules";

std::string plan_command(const bench_report& r) {
  const auto w = r.workload.value_or(workload_section{});
  const auto t = r.topology.value_or(topology_section{});
  const auto d = r.dataset.value_or(dataset_section{});
  std::string cmd = fmt::format("dlsize plan --workload {}", w.name.value_or("WORKLOAD"));
  if (w.accelerator)
    cmd += fmt::format(" --accelerator {} --accelerators {} --batch-size {}",
                       w.accelerator->type.value_or("TYPE"), t.accelerators.value_or(1),
                       w.accelerator->batch_size.value_or(1));
  else // a storage-only run: the accelerators it stands for are the reader's to name
    cmd += " --accelerator TYPE --accelerators N";
  if (d.client_ram_bytes.has_value())
    cmd += fmt::format(" --client-ram {}B --clients {}", *d.client_ram_bytes, t.nodes.value_or(1));
  return cmd;
}

validity_rule steps_rule(const bench_report& r, bool training) {
  validity_rule v;
  v.rule = fmt::format("≥ {} steps per epoch", kMlperfMinStepsPerEpoch);
  v.source = fmt::format("{}: dataset size (so that an epoch is long enough to measure)", kRules);
  v.judge = plan_command(r) + " (dataset.min_samples)";
  const auto spe = r.summary ? r.summary->steps_per_epoch : field<std::uint64_t>{};
  if (!training || !spe.has_value()) {
    v.measured = "no steps: a storage-only run";
    return v;
  }
  v.measured = fmt::format("{} steps per epoch", *spe);
  v.verdict = *spe >= kMlperfMinStepsPerEpoch ? rule_verdict::pass : rule_verdict::fail;
  return v;
}

validity_rule dataset_rule(const bench_report& r) {
  validity_rule v;
  v.rule = fmt::format("dataset ≥ {:g} × the clients' RAM", kMlperfMinDatasetOverRam);
  v.source = fmt::format("{}: dataset size (so that the page cache cannot serve the run)", kRules);
  v.judge = plan_command(r) + " (dataset.min_bytes); dlsize datagen --size 5x-ram makes one";
  const auto d = r.dataset.value_or(dataset_section{});
  const auto clients = r.topology ? r.topology->nodes.value_or(1) : 1;
  if (!d.bytes.has_value() || !d.client_ram_bytes.has_value() || *d.client_ram_bytes == 0) {
    v.measured = "the report has no dataset size or client RAM";
    return v;
  }
  const double ram = static_cast<double>(*d.client_ram_bytes) * static_cast<double>(clients);
  const double over = static_cast<double>(*d.bytes) / ram;
  v.measured = fmt::format(
      "{} over {} × {} of RAM: {:.2f} ×", units::format_bytes_binary(static_cast<double>(*d.bytes)),
      clients, units::format_bytes_binary(static_cast<double>(*d.client_ram_bytes)), over);
  v.verdict = over >= kMlperfMinDatasetOverRam ? rule_verdict::pass : rule_verdict::fail;
  return v;
}

validity_rule epochs_rule(const bench_report& r, bool training) {
  validity_rule v;
  v.rule = "epochs as the workload asks";
  const auto w = r.workload.value_or(workload_section{});
  const std::string from = w.epochs_source.value_or("");
  v.source = fmt::format("{}: the workload's configuration ({})", kRules,
                         from.empty() ? "the workload profile" : from);
  const auto s = r.summary.value_or(summary_section{});
  const auto asked = w.epochs;
  v.judge = fmt::format("dlsize bench --workload {} --epochs {}", w.name.value_or("WORKLOAD"),
                        asked.has_value() ? std::to_string(*asked) : std::string("N"));
  if (!training) {
    v.measured = "no training: a storage-only run";
    return v;
  }
  if (!asked.has_value()) {
    v.measured = "the workload profile names no epoch count";
    return v;
  }
  const auto ran = s.epochs_completed.value_or(0), planned = s.epochs.value_or(0);
  v.measured = fmt::format("{} of {} epochs ran; the workload asks {}", ran, planned, *asked);
  v.verdict = ran == *asked && planned == *asked ? rule_verdict::pass : rule_verdict::fail;
  return v;
}

} // namespace

std::string to_string(rule_verdict v) {
  switch (v) {
  case rule_verdict::pass:
    return "PASS";
  case rule_verdict::fail:
    return "FAIL";
  case rule_verdict::not_judged:
    break;
  }
  return "not judged";
}

bool validity::valid() const {
  return std::none_of(rules.begin(), rules.end(),
                      [](const auto& r) { return r.verdict == rule_verdict::fail; });
}

bool validity::proven() const {
  return std::all_of(rules.begin(), rules.end(),
                     [](const auto& r) { return r.verdict == rule_verdict::pass; });
}

std::string validity::verdict() const {
  return !valid() ? "INVALID" : proven() ? "VALID" : "not proven";
}

validity mlperf_validity(const bench_report& r) {
  const bool training = r.workload && r.workload->accelerator.has_value() && r.topology &&
                        r.topology->accelerators.value_or(0) > 0;
  return {{steps_rule(r, training), dataset_rule(r), epochs_rule(r, training)}};
}

} // namespace dlsize::report
