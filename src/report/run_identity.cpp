#include "report/run_identity.hpp"

#include <fmt/format.h>

namespace dlsize::report {

std::string topology_label(const nlohmann::json& r) {
  const auto t = r.value("topology", nlohmann::json::object());
  const auto ranks = t.value("ranks", 1), nodes = t.value("nodes", 1);
  // Nodes declared on one host (--ranks-per-node) are never grouped with real ones.
  const auto declared = t.value("declared", nlohmann::json(nullptr));
  const std::string suffix =
      declared.is_object() ? fmt::format(", declared {} × {} on one host", declared["nodes"].dump(),
                                         declared["accelerators_per_node"].dump())
                           : "";
  if (ranks <= 1 && nodes <= 1)
    return "1 process" + suffix;
  const auto per_rank = t.value("accelerators_per_rank", nlohmann::json(nullptr));
  const auto per_node = t.value("ranks_per_node", nlohmann::json(nullptr));
  return fmt::format("{} node{} × {} ranks × {} accelerator{}", nodes, nodes == 1 ? "" : "s",
                     per_node.is_number() ? per_node.dump() : fmt::format("{} uneven", ranks),
                     per_rank.is_number() ? per_rank.dump() : "?",
                     per_rank.is_number() && per_rank.get<int>() == 1 ? "" : "s") +
         suffix;
}

std::string workload_of(const nlohmann::json& r) {
  return r.value("workload", nlohmann::json::object()).value("name", "");
}

std::string accelerator_type_of(const nlohmann::json& r) {
  const auto w = r.value("workload", nlohmann::json::object());
  return w.contains("accelerator") ? w["accelerator"].value("type", "") : std::string("none");
}

std::uint64_t accelerators_of(const nlohmann::json& r) {
  return r.value("topology", nlohmann::json::object()).value("accelerators", std::uint64_t{0});
}

std::string dataset_shape(const nlohmann::json& r) {
  const auto d = r.value("dataset", nlohmann::json::object());
  const double samples = d.value("samples", 0.0);
  const double bytes = d.value("bytes", 0.0);
  return fmt::format("{} samples in {} files of {} records, {:.0f} B per sample",
                     d.value("samples", 0), d.value("files", 0), d.value("records_per_file", 0),
                     samples > 0 ? bytes / samples : 0.0);
}

std::string text_of(const nlohmann::json& j) {
  return j.is_string() ? j.get<std::string>() : j.dump();
}

std::vector<std::string> setting_differences(const nlohmann::json& a, const std::string& a_file,
                                             const nlohmann::json& b, const std::string& b_file,
                                             const std::set<std::string>& may_differ) {
  std::vector<std::string> out;
  const auto ca = a.value("config", nlohmann::json::object());
  const auto cb = b.value("config", nlohmann::json::object());
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
