#include "report/run_identity.hpp"

#include <fmt/format.h>

namespace dlsize::report {

std::string topology_label(const bench_report& r) {
  const topology_section& t = or_empty(r.topology);
  const std::uint64_t ranks = t.ranks.value_or(1), nodes = t.nodes.value_or(1);
  // Nodes declared on one host (--ranks-per-node) are never grouped with real ones.
  auto shown = [](const field<std::uint64_t>& f) {
    return f.has_value() ? fmt::format("{}", *f) : std::string("null");
  };
  const std::string suffix =
      t.declared.has_value()
          ? fmt::format(", declared {} × {} on one host", shown(t.declared->nodes),
                        shown(t.declared->accelerators_per_node))
          : "";
  if (ranks <= 1 && nodes <= 1)
    return "1 process" + suffix;
  const auto& per_rank = t.accelerators_per_rank;
  const auto& per_node = t.ranks_per_node;
  return fmt::format("{} node{} × {} ranks × {} accelerator{}", nodes, nodes == 1 ? "" : "s",
                     per_node.has_value() ? fmt::format("{}", *per_node)
                                          : fmt::format("{} uneven", ranks),
                     per_rank.has_value() ? fmt::format("{}", *per_rank) : "?",
                     per_rank.has_value() && *per_rank == 1 ? "" : "s") +
         suffix;
}

std::string workload_of(const bench_report& r) {
  return or_empty(r.workload).name.value_or("");
}

std::string accelerator_type_of(const bench_report& r) {
  const auto& accelerator = or_empty(r.workload).accelerator;
  return accelerator ? accelerator->type.value_or("") : std::string("none");
}

std::uint64_t accelerators_of(const bench_report& r) {
  return or_empty(r.topology).accelerators.value_or(0);
}

std::string dataset_shape(const bench_report& r) {
  const dataset_section& d = or_empty(r.dataset);
  const std::uint64_t samples = d.samples.value_or(0);
  const auto bytes = static_cast<double>(d.bytes.value_or(0));
  return fmt::format("{} samples in {} files of {} records, {:.0f} B per sample", samples,
                     d.files.value_or(0), d.records_per_file.value_or(0),
                     samples > 0 ? bytes / static_cast<double>(samples) : 0.0);
}

std::string text_of(const nlohmann::json& j) {
  return j.is_string() ? j.get<std::string>() : j.dump();
}

std::vector<std::string> setting_differences(const bench_report& a, const std::string& a_file,
                                             const bench_report& b, const std::string& b_file,
                                             const std::set<std::string>& may_differ) {
  std::vector<std::string> out;
  // The config is a free-form map of long option names by design: it is compared as JSON.
  const nlohmann::json ca = a.config.value_or(nlohmann::json::object());
  const nlohmann::json cb = b.config.value_or(nlohmann::json::object());
  for (const auto& [k, v] : ca.items()) {
    if (may_differ.count(k))
      continue;
    const auto& other = cb.value(k, nlohmann::json(nullptr));
    if (other != v)
      out.push_back(fmt::format("{} differs: {} in {}, {} in {}", k, text_of(v), a_file,
                                text_of(other), b_file));
  }
  return out;
}

const std::set<std::string>& backend_settings() {
  static const std::set<std::string> keys = {
      "dataset",         "out",           "generate",
      "quiet",           "max-read-rate", "config",
      "sample-interval", "seed",          "accelerators-per-rank",
      "rank-timeout",    "label",         "stall-timeout"};
  return keys;
}

} // namespace dlsize::report
