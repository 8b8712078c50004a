#include "report/mlperf_validity.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "core/units.hpp"
#include "report/fs_separation.hpp"

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

// v3.0 §3.1.2: the minimum samples are the larger of 500 steps of every accelerator and 5 × the
// hosts' RAM in records; a storage-only run has no steps, so only its RAM half is judged.
validity_rule dataset_rule_v3(const bench_report& r, bool training) {
  validity_rule v;
  v.rule = fmt::format("samples ≥ max({} steps × batch × accelerators, {:g} × Σ client RAM ÷ "
                       "record length)",
                       kMlperfMinStepsPerEpoch, kMlperfMinDatasetOverRam);
  v.source = fmt::format("{}: §3.1.2 trainingRecalculateDatasetSize", kV3RulesDoc);
  v.judge = plan_command(r) + " (dataset.min_samples); dlsize datagen --size 5x-ram makes one";
  const auto d = r.dataset.value_or(dataset_section{});
  const auto t = r.topology.value_or(topology_section{});
  const std::uint64_t clients = t.nodes.value_or(1);
  const std::uint64_t samples =
      d.samples.value_or(d.files.value_or(0) * d.records_per_file.value_or(1));
  if (!d.bytes.has_value() || samples == 0 || !d.client_ram_bytes.has_value() ||
      *d.client_ram_bytes == 0) {
    v.measured = "the report has no dataset size, sample count or client RAM";
    return v;
  }
  const double record = static_cast<double>(*d.bytes) / static_cast<double>(samples);
  const double ram = static_cast<double>(*d.client_ram_bytes) * static_cast<double>(clients);
  const double by_ram = kMlperfMinDatasetOverRam * ram / record;
  std::uint64_t by_steps = 0;
  if (training)
    by_steps = kMlperfMinStepsPerEpoch * t.accelerators.value_or(0) *
               r.workload->accelerator->batch_size.value_or(1);
  const double needed = std::max(by_ram, static_cast<double>(by_steps));
  v.measured = fmt::format(
      "{} samples of {:.0f} B; {:g} × {} × {} of RAM needs {:.0f}{}", samples, record,
      kMlperfMinDatasetOverRam, clients,
      units::format_bytes_binary(static_cast<double>(*d.client_ram_bytes)), std::ceil(by_ram),
      training ? fmt::format(", {} steps need {}", kMlperfMinStepsPerEpoch, by_steps)
               : std::string(" (no steps: a storage-only run)"));
  if (static_cast<double>(samples) < needed)
    v.verdict = rule_verdict::fail;
  else
    v.verdict = training ? rule_verdict::pass : rule_verdict::not_judged;
  return v;
}

// v3.0 §3.3.6: every node runs as many emulated accelerators as the others; a report gives
// ranks per node and accelerators per rank when the job was laid out evenly.
validity_rule nodes_rule_v3(const bench_report& r, bool training) {
  validity_rule v;
  v.rule = "identical accelerators per node";
  v.source = fmt::format("{}: §3.3.6 trainingIdenticalAcceleratorsPerNode", kV3RulesDoc);
  v.judge = "dlsize bench (topology: nodes, ranks_per_node, accelerators_per_rank)";
  if (!training) {
    v.measured = "no accelerators: a storage-only run";
    return v;
  }
  const auto t = r.topology.value_or(topology_section{});
  const auto nodes = t.nodes.value_or(1), accelerators = t.accelerators.value_or(0);
  if (nodes <= 1) {
    v.measured = fmt::format("{} accelerators on one node", accelerators);
    v.verdict = rule_verdict::pass;
    return v;
  }
  if (!t.ranks_per_node.has_value() || !t.accelerators_per_rank.has_value()) {
    v.measured = fmt::format("{} accelerators on {} nodes; the report gives no ranks per node",
                             accelerators, nodes);
    return v;
  }
  const auto per_node = *t.ranks_per_node * *t.accelerators_per_rank;
  v.measured =
      fmt::format("{} accelerators on {} nodes, {} per node", accelerators, nodes, per_node);
  v.verdict = per_node * nodes == accelerators ? rule_verdict::pass : rule_verdict::fail;
  return v;
}

// v3.0 §3.4.2: the dataset and the results (the report) on different file systems, as bench
// records them (fs_separation: the device of each).
validity_rule fs_rule_v3(const bench_report& r) {
  return fs_separation_rule(r.fs_separation.value, "dataset",
                            fmt::format("{}: §3.4.1 trainingMlpstoragePathArgs, §3.4.2 "
                                        "trainingMlpstorageFilesystemCheck",
                                        kV3RulesDoc),
                            "dlsize bench (fs_separation: the devices of --dataset and --out)",
                            r.storage && r.storage->s3.has_value());
}

} // namespace

std::string to_string(rule_verdict v) {
  return std::string(core::name_of(v));
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

validity mlperf_validity(const bench_report& r, rules_edition edition) {
  const bool training = r.workload && r.workload->accelerator.has_value() && r.topology &&
                        r.topology->accelerators.value_or(0) > 0;
  if (edition != rules_edition::v3)
    return {edition, {steps_rule(r, training), dataset_rule(r), epochs_rule(r, training)}};
  validity_rule epochs = epochs_rule(r, training);
  epochs.source = fmt::format("{}: §3.6.2 trainingClosedSubmissionParameters (train.epochs is "
                              "not a tunable: the workload's configuration, {}, sets it)",
                              kV3RulesDoc,
                              r.workload ? r.workload->epochs_source.value_or("its profile")
                                         : std::string("its profile"));
  return {
      edition,
      {dataset_rule_v3(r, training), std::move(epochs), nodes_rule_v3(r, training), fs_rule_v3(r)}};
}

} // namespace dlsize::report
