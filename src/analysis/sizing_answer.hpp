#pragma once
// The buyer's answer, first on every sizing page (`size` and `compare`): per load and target
// accelerator count, one required bandwidth (the load's requirement, pooled over the backends),
// one provision (the headroom rule, named once), and for each backend measured a verdict in
// words: `holds` (its ceiling, or what it delivered at least, above the provision, with the
// margin), `does not hold` (its ceiling and knee) or `not determined` (its runs never found a
// ceiling and what they delivered is below the provision: at least X from N clients). With a
// buyer's prices (analysis/backend_prices) each verdict gets its cost and the row the cheapest
// backend that holds it; one recommendation line closes the answer (docs/sizing.md).
#include <cmath>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "analysis/backend_prices.hpp"
#include "analysis/requirement.hpp"
#include "core/enum_names.hpp"

namespace dlsize::analysis {

struct sizing_document;
struct sizing_series;

enum class holds_kind { holds, does_not_hold, not_determined };
inline constexpr core::enum_table<holds_kind, 3> kHoldsKindNames{
    {{holds_kind::holds, "holds"},
     {holds_kind::does_not_hold, "does not hold"},
     {holds_kind::not_determined, "not determined"}}};
constexpr const auto& names_of(holds_kind) {
  return kHoldsKindNames;
}

// What a backend's verdict costs at a row, from the buyer's prices.
struct answer_cost {
  double bandwidth = std::nan(""), capacity = std::nan(""), total = std::nan("");
  double per_accelerator = std::nan("");
  std::optional<bool> capacity_fits; // usable_tb ≥ the capacity needed; none: not given
};

// One backend at one row.
struct backend_answer {
  std::string backend; // the series' backend name (and dataset size where it has several)
  holds_kind kind = holds_kind::not_determined;
  double delivers = 0;                     // storage bytes/s: its ceiling, or what it gave at least
  bool at_least = true;                    // delivers is a lower bound
  double margin = std::nan("");            // delivers ÷ provision − 1
  std::optional<double> knee_accelerators; // where bandwidth stopped growing
  std::optional<std::uint64_t> most_accelerators; // at the AU threshold, from the ceiling
  double clients = 1;
  std::string text; // the verdict in words
  std::optional<answer_cost> cost;
};

// One target count (and the data growth factors that need the same bandwidth).
struct answer_row {
  double accelerators = 0;
  std::vector<double> growth;
  double required = 0, required_low = std::nan(""), required_high = std::nan("");
  double provision = 0;
  double scaling_efficiency = 1;        // the modelled allreduce's at this count (1 without one)
  double capacity_bytes = std::nan(""); // the dataset × growth (+ a checkpoint where measured)
  std::optional<bool> within_network;   // provision within the clients' NICs; none: not given
  std::vector<backend_answer> backends;
  std::string cheapest; // the cheapest backend that holds the row; "": none, or no prices
};

// The answer for one load.
struct sizing_answer {
  std::string workload, accelerator;
  std::size_t requirement = 0;       // its index in the document's requirements
  double au_threshold = 0.9;         // the requirement's
  std::vector<std::string> backends; // the columns, in series order
  std::string provision_rule;        // the headroom rule in words
  std::string cache_note;            // the cache the rows assume; why growth rows merged
  std::string capacity_note;         // what the capacity counts
  std::vector<answer_row> rows;      // targets ascending
  std::string recommendation;
};

// The answers of a sizing document (its series, requirements and options), with the prices
// given (none: nothing priced).
std::vector<sizing_answer> answers_of(const sizing_document& d, const price_list& prices);

// The series an answer's columns come from, in its column order.
std::vector<const sizing_series*> answer_series(const sizing_document& d, const sizing_answer& a);

// Its JSON (docs/sizing.schema.json, $defs/answer), the requirement it answers inside
// (analysis/sizing_answer_json.cpp).
nlohmann::json to_json(const sizing_answer& a, const workload_requirement& requirement);

} // namespace dlsize::analysis
