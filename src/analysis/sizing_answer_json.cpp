// The JSON of a load's requirement and of its answer (docs/sizing.schema.json: $defs/requirement
// and $defs/answer), written alike into the sizing, compare and plan documents.
#include <nlohmann/json.hpp>

#include "analysis/requirement.hpp"
#include "analysis/sizing_answer.hpp"
#include "core/enum_names.hpp"

namespace dlsize::analysis {
namespace {

using json = nlohmann::json;

json num(double v) {
  return std::isfinite(v) ? json(v) : json(nullptr);
}

json per_accelerator(double at_100, double at_threshold) {
  if (!std::isfinite(at_100))
    return nullptr;
  return {{"bytes_per_s", at_100}, {"at_threshold_bytes_per_s", num(at_threshold)}};
}

json cost_json(const std::optional<answer_cost>& c) {
  if (!c)
    return nullptr;
  return {{"bandwidth", num(c->bandwidth)},
          {"capacity", num(c->capacity)},
          {"total", num(c->total)},
          {"per_accelerator", num(c->per_accelerator)},
          {"capacity_fits", c->capacity_fits ? json(*c->capacity_fits) : json(nullptr)}};
}

json backend_json(const backend_answer& b) {
  return {{"backend", b.backend},
          {"verdict", core::name_of(b.kind)},
          {"delivers_bytes_per_s", b.delivers},
          {"at_least", b.at_least},
          {"margin", num(b.margin)},
          {"knee_accelerators", b.knee_accelerators ? json(*b.knee_accelerators) : json(nullptr)},
          {"most_accelerators", b.most_accelerators ? json(*b.most_accelerators) : json(nullptr)},
          {"clients", b.clients},
          {"text", b.text},
          {"cost", cost_json(b.cost)}};
}

json row_json(const answer_row& r) {
  json backends = json::array();
  for (const auto& b : r.backends)
    backends.push_back(backend_json(b));
  const bool interval = std::isfinite(r.required_low) && std::isfinite(r.required_high);
  return {{"accelerators", r.accelerators},
          {"growth", r.growth},
          {"required_bytes_per_s", r.required},
          {"required_interval95",
           interval ? json::array({r.required_low, r.required_high}) : json(nullptr)},
          {"provision_bytes_per_s", r.provision},
          {"scaling_efficiency", r.scaling_efficiency},
          {"capacity_bytes", num(r.capacity_bytes)},
          {"within_network", r.within_network ? json(*r.within_network) : json(nullptr)},
          {"cheapest", r.cheapest.empty() ? json(nullptr) : json(r.cheapest)},
          {"backends", backends}};
}

} // namespace

json to_json(const workload_requirement& r) {
  return {{"workload", r.workload},
          {"accelerator", r.accelerator},
          {"au_threshold", r.au_threshold},
          {"planned", per_accelerator(r.planned, r.planned_at_threshold)},
          {"measured", per_accelerator(r.measured, r.measured_at_threshold)},
          {"difference", num(r.difference)},
          {"reasons", r.reasons},
          {"read_amplification", num(r.read_amplification)},
          {"hit_ratio", num(r.hit_ratio)},
          {"runs", r.runs},
          {"client_limited_runs", r.client_limited_runs},
          {"backends", r.backends},
          {"source", r.source()},
          {"basis", r.basis()}};
}

json to_json(const sizing_answer& a, const workload_requirement& requirement) {
  json rows = json::array();
  for (const auto& r : a.rows)
    rows.push_back(row_json(r));
  return {{"workload", a.workload},
          {"accelerator", a.accelerator},
          {"requirement", to_json(requirement)},
          {"provision_rule", a.provision_rule},
          {"cache_note", a.cache_note},
          {"capacity_note", a.capacity_note},
          {"backends", a.backends},
          {"rows", rows},
          {"recommendation", a.recommendation}};
}

} // namespace dlsize::analysis
