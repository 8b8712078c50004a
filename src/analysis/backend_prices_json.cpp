// The backends.json file (docs/sizing.md, "Cost and capacity"): the one place its keys are read.
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "analysis/backend_prices.hpp"
#include "core/error.hpp"
#include "core/json_input.hpp"

namespace dlsize::analysis {
namespace {

using json = nlohmann::json;

constexpr core::json_limits kBackendsJson{"backends file", core::kSmallJsonBytes};

std::optional<double> price_key(const json& row, const char* key, const std::string& where) {
  if (!row.contains(key) || row.at(key).is_null())
    return std::nullopt;
  const json& v = row.at(key);
  if (!v.is_number() || !(v.get<double>() >= 0) || !std::isfinite(v.get<double>()))
    throw usage_error(
        fmt::format("{}/{}: {} is not valid. valid: a number >= 0", where, key, v.dump()));
  return v.get<double>();
}

} // namespace

price_list read_backends_file(const std::string& path) {
  const json j = core::read_json_file(path, kBackendsJson);
  if (!j.is_object() || j.value("schema", json()) != kBackendsSchema)
    throw usage_error(fmt::format("{}: /schema: not {}. valid: {{\"schema\": \"{}\", "
                                  "\"backends\": [{{\"label\": …, \"price_per_tb\": …}}]}}",
                                  path, kBackendsSchema, kBackendsSchema));
  if (!j.contains("backends") || !j.at("backends").is_array())
    throw usage_error(fmt::format("{}: /backends: missing or not an array. valid: an array of "
                                  "{{label, price_per_tb, price_per_gbps, usable_tb}}",
                                  path));
  price_list out;
  const json& rows = j.at("backends");
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const std::string where = fmt::format("{}: /backends/{}", path, i);
    const json& row = rows[i];
    if (!row.is_object() || !row.contains("label") || !row.at("label").is_string() ||
        row.at("label").get<std::string>().empty())
      throw usage_error(fmt::format("{}/label: missing. valid: the backend's label as the "
                                    "reports name it (bench --label)",
                                    where));
    for (const auto& [key, value] : row.items())
      if (key != "label" && key != "price_per_tb" && key != "price_per_gbps" && key != "usable_tb")
        throw usage_error(fmt::format("{}/{}: unknown key. valid: label, price_per_tb, "
                                      "price_per_gbps, usable_tb",
                                      where, key));
    backend_prices p;
    p.source = path;
    p.price_per_tb = price_key(row, "price_per_tb", where);
    p.price_per_gbps = price_key(row, "price_per_gbps", where);
    p.usable_tb = price_key(row, "usable_tb", where);
    out[row.at("label").get<std::string>()] = p;
  }
  return out;
}

} // namespace dlsize::analysis
