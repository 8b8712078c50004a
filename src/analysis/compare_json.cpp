// The JSON of a compare_document ("schema": "dlsize.compare/1"): the one place a comparison's
// keys are written. Nothing reads a comparison back.
#include <string>

#include "analysis/compare.hpp"
#include "analysis/compare_document.hpp"

namespace dlsize::analysis {
namespace {

nlohmann::json to_json(const metric_figures& m) {
  return {{"median", m.median},
          {"runs", m.runs},
          {"spread", m.spread ? nlohmann::json(*m.spread) : nlohmann::json(nullptr)},
          {"synthetic", m.synthetic}};
}

nlohmann::json to_json(const metric_delta& d) {
  return {{"delta", d.delta},
          {"exceeds_spread",
           d.exceeds_spread ? nlohmann::json(*d.exceeds_spread) : nlohmann::json(nullptr)},
          {"verdict", std::string(core::name_of(d.verdict))}};
}

nlohmann::json to_json(const compare_backend& b) {
  nlohmann::json limits = nlohmann::json::object();
  for (const auto& [kind, runs] : b.limited_by)
    limits[report::to_string(kind)] = runs;
  nlohmann::json metrics = nlohmann::json::object();
  for (const auto& m : b.metrics)
    metrics[m.metric] = m.value ? to_json(*m.value) : nlohmann::json(nullptr);
  return {{"backend", b.backend},
          {"label", b.label},
          {"identity", b.identity},
          {"reports", b.reports},
          {"runs", b.runs()},
          {"au_passes", b.au_passes},
          {"synthetic_latency", b.synthetic_latency},
          {"limited_by", limits},
          {"metrics", metrics},
          {"mlperf_validity", to_json(b.mlperf_validity)}};
}

nlohmann::json to_json(const compare_metric_row& row) {
  nlohmann::json deltas = nlohmann::json::array();
  for (const auto& d : row.against_first)
    deltas.push_back(d ? to_json(*d) : nlohmann::json(nullptr));
  return {{"metric", row.metric},
          {"unit", row.unit},
          {"higher_is_better", row.higher_is_better},
          {"against_first", deltas}};
}

nlohmann::json to_json(const ratio_against_first& r) {
  return {
      {"backend", r.backend},
      {"ratio", r.ratio ? nlohmann::json(r.ratio->ratio) : nlohmann::json(nullptr)},
      {"ci95", r.ratio ? nlohmann::json({r.ratio->low, r.ratio->high}) : nlohmann::json(nullptr)},
      {"text", r.text}};
}

nlohmann::json to_json(const compare_section& s);

template <typename T> nlohmann::json array_of(const std::vector<T>& items) {
  nlohmann::json a = nlohmann::json::array();
  for (const auto& i : items)
    a.push_back(to_json(i));
  return a;
}

nlohmann::json to_json(const compare_section& s) {
  return {{"accelerators", s.accelerators},
          {"backends", array_of(s.backends)},
          {"metrics", array_of(s.metrics)},
          {"samples_per_s_against_first", array_of(s.samples_per_s_against_first)}};
}

nlohmann::json answers_json(const compare_document& d) {
  nlohmann::json out = nlohmann::json::array();
  if (d.sizing)
    for (const auto& a : d.sizing->answers)
      out.push_back(to_json(a, d.sizing->requirements.at(a.requirement)));
  return out;
}

} // namespace

nlohmann::json to_json(const compare_document& d) {
  nlohmann::json sections = array_of(d.sections);
  // Checkpoint reports alone have no section: the top level's are empty.
  const nlohmann::json head =
      d.sections.empty() ? to_json(compare_section{}) : sections.at(d.headline);
  nlohmann::json left_out = nlohmann::json::array();
  for (const auto& l : d.left_out)
    left_out.push_back({{"file", l.file}, {"reason", l.reason}});
  nlohmann::json out = {{"schema", kCompareSchema},
                        {"created_at", d.created_at},
                        {"tool", d.tool},
                        {"workload", d.workload},
                        {"accelerator", d.accelerator},
                        {"accelerators", head["accelerators"]},
                        {"dataset", d.dataset},
                        {"backends", head["backends"]},
                        {"metrics", head["metrics"]},
                        {"samples_per_s_against_first", head["samples_per_s_against_first"]},
                        {"by_accelerators", sections},
                        {"left_out", left_out},
                        {"answers", answers_json(d)},
                        {"sizing_note", d.sizing_note.empty() ? nlohmann::json(nullptr)
                                                              : nlohmann::json(d.sizing_note)},
                        {"warnings", d.warnings}};
  // Only where checkpoints were measured: a comparison of reads alone is unchanged.
  if (!d.goodput.empty())
    out["goodput"] = array_of(d.goodput);
  return out;
}

std::string tool_version(const compare_document& d) {
  return d.tool.is_object() ? d.tool.value("version", std::string()) : std::string();
}

} // namespace dlsize::analysis
