#include "analysis/backend_prices.hpp"

#include <cmath>
#include <sstream>

#include <fmt/format.h>

#include "core/error.hpp"

namespace dlsize::analysis {
namespace {

constexpr const char* kValidKeys = "price_per_tb, price_per_gbps, usable_tb";

// A price or capacity: a finite number ≥ 0.
double price_value(const std::string& text, const std::string& where) {
  std::size_t used = 0;
  double v = std::nan("");
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || !std::isfinite(v) || v < 0)
    throw usage_error(fmt::format("{}: '{}' is not valid. valid: a number >= 0", where, text));
  return v;
}

} // namespace

std::pair<std::string, backend_prices> parse_backend_option(const std::string& text) {
  const auto colon = text.rfind(':');
  const std::string format = "valid: LABEL:price_per_tb=N,price_per_gbps=N,usable_tb=N (keys "
                             "in any order, at least one)";
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size())
    throw usage_error(fmt::format("--backend: '{}' is not valid. {}", text, format));
  const std::string label = text.substr(0, colon);
  backend_prices p;
  p.source = "--backend";
  std::istringstream items(text.substr(colon + 1));
  for (std::string item; std::getline(items, item, ',');) {
    const auto eq = item.find('=');
    const std::string key = item.substr(0, eq);
    const std::string where = fmt::format("--backend {}: {}", label, key);
    std::optional<double>* slot = key == "price_per_tb"     ? &p.price_per_tb
                                  : key == "price_per_gbps" ? &p.price_per_gbps
                                  : key == "usable_tb"      ? &p.usable_tb
                                                            : nullptr;
    if (eq == std::string::npos || !slot)
      throw usage_error(
          fmt::format("--backend {}: '{}' is not valid. valid keys: {}", label, item, kValidKeys));
    if (*slot)
      throw usage_error(fmt::format("{}: given twice. valid: each key once", where));
    *slot = price_value(item.substr(eq + 1), where);
  }
  return {label, p};
}

const backend_prices* prices_of(const price_list& prices, const std::string& name,
                                const std::string& label) {
  if (const auto it = prices.find(name); it != prices.end())
    return &it->second;
  if (const auto it = prices.find(label); !label.empty() && it != prices.end())
    return &it->second;
  return nullptr;
}

} // namespace dlsize::analysis
