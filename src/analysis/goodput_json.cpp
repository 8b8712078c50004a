// The JSON of a goodput section (docs/plan.schema.json's `goodput`; the sizing's and the
// comparison's `goodput` entries): the one place its keys are written. Nothing reads it back but
// `dlsize validate`.
#include <nlohmann/json.hpp>

#include "analysis/goodput_document.hpp"

namespace dlsize::analysis {
namespace {

template <typename T> nlohmann::json optional_json(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

nlohmann::json to_json(const goodput_rates_document& r) {
  return {{"bytes_per_s", r.bytes_per_s},
          {"rank_bytes_per_s", optional_json(r.rank_bytes_per_s)},
          {"source", r.source}};
}

nlohmann::json to_json(const goodput_row_document& r) {
  nlohmann::json loss = nullptr;
  if (r.loss)
    loss = {{"checkpoints", r.loss->checkpoints},
            {"rework", r.loss->rework},
            {"restarts", r.loss->restarts},
            {"total", r.loss->total}};
  return {{"accelerators", r.accelerators},
          {"system_mttf_s", r.system_mttf_s},
          {"largest_rank_bytes", r.largest_rank_bytes},
          {"write_bytes_per_s", r.write_bytes_per_s},
          {"write_s", r.write_s},
          {"pause_s", r.pause_s},
          {"drain_s", r.drain_s},
          {"restore_s", r.restore_s},
          {"restart_s", r.restart_s},
          {"young_s", r.young_s},
          {"daly_s", optional_json(r.daly_s)},
          {"interval_s", optional_json(r.interval_s)},
          {"keeps_up", r.keeps_up},
          {"drain_bound", r.drain_bound},
          {"loss", loss},
          {"goodput", optional_json(r.goodput)},
          {"write_bytes_per_s_for_max_loss", optional_json(r.write_bytes_per_s_for_max_loss)},
          {"meets_max_loss", r.meets_max_loss}};
}

} // namespace

nlohmann::json to_json(const goodput_document& d) {
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& r : d.rows)
    rows.push_back(to_json(r));
  nlohmann::json curve = nlohmann::json::array();
  for (const auto& p : d.curve)
    curve.push_back({{"accelerators", p.accelerators}, {"loss", p.loss}});
  return {{"workload", d.workload},
          {"backend", d.backend},
          {"checkpoint_bytes", d.checkpoint_bytes},
          {"checkpoint_source", d.checkpoint_source},
          {"mttf_s", d.mttf_s},
          {"mttf_source", d.mttf_source},
          {"mode", d.async ? "async" : "sync"},
          {"staging_bytes_per_s", optional_json(d.staging_bytes_per_s)},
          {"restart_overhead_s", d.restart_overhead_s},
          {"restart_overhead_source", d.restart_overhead_source},
          {"write", to_json(d.write)},
          {"restore", to_json(d.restore)},
          {"max_loss", d.max_loss},
          {"accelerators", d.accelerators > 0 ? nlohmann::json(d.accelerators) : nullptr},
          {"rows", rows},
          {"curve", curve},
          {"holds_max_loss_up_to", d.holds_max_loss_up_to},
          {"holds_beyond_search", d.holds_beyond_search},
          {"assumptions", d.assumptions},
          {"warnings", d.warnings}};
}

} // namespace dlsize::analysis
