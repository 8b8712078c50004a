#include "analysis/sizing_rules.hpp"

#include <filesystem>

#include <fmt/format.h>

#include "core/enum_names.hpp"
#include "core/error.hpp"
#include "core/units.hpp"
#include "report/rules_edition.hpp"

namespace dlsize::analysis {
namespace {

cache_model_kind cache_model_of(const std::string& text) {
  if (const auto k = core::find_enum<cache_model_kind>(text))
    return *k;
  throw usage_error(fmt::format("--cache-model: '{}' is not valid. valid: {}", text,
                                core::valid_names<cache_model_kind>()));
}

} // namespace

void check_out_prefix(const std::string& out) {
  if (out.empty())
    throw usage_error(
        "--out: an empty prefix. valid: a prefix such as results/sizing (PREFIX.json, "
        ".md, .html are written)");
}

sizing_request sizing_request_of(const size_options& o) {
  sizing_request req;
  req.targets = o.targets;
  req.growth = o.growth;
  if (!(o.headroom >= 1))
    throw usage_error(fmt::format("--headroom: {} is not valid. valid: a factor of 1 or more (1.2: "
                                  "20 % above the requirement)",
                                  o.headroom));
  req.headroom = o.headroom;
  if (!o.nic_bandwidth.empty())
    req.nic_bandwidth = units::parse_rate(o.nic_bandwidth, "--nic-bandwidth");
  req.nic_efficiency = units::parse_fraction(o.nic_efficiency, "--nic-efficiency");
  if (o.clients < 1)
    throw usage_error("--clients: must be at least 1");
  req.clients = o.clients;
  req.accelerators_per_node = o.accelerators_per_node;
  req.rules = report::parse_rules_edition(o.rules, "--rules");
  if (!o.front_end_bandwidth.empty())
    req.front_end_bandwidth = units::parse_rate(o.front_end_bandwidth, "--front-end-bandwidth");
  req.cache_model = cache_model_of(o.cache_model);
  if (!o.cache_bytes.empty())
    throw usage_error(fmt::format("--cache-bytes {}: renamed. valid: --client-ram SIZE (RAM per "
                                  "client) with --clients N; the cache is their product",
                                  o.cache_bytes));
  if (!o.client_ram.empty())
    req.cache_bytes = static_cast<double>(units::parse_size(o.client_ram, "--client-ram")) *
                      static_cast<double>(o.clients);
  if (!o.dataset_size.empty())
    req.dataset_bytes = static_cast<double>(units::parse_size(o.dataset_size, "--dataset-size"));
  req.goodput = parse_goodput_options(o.goodput);
  return req;
}

price_list prices_of(const size_options& o, const std::vector<std::string>& inputs) {
  price_list out;
  const auto merge = [&](const price_list& more) {
    for (const auto& [label, p] : more)
      out[label] = p;
  };
  for (const auto& in : inputs) {
    std::error_code ec;
    const auto beside = std::filesystem::path(in) / "backends.json";
    if (std::filesystem::is_directory(in, ec) && std::filesystem::exists(beside, ec))
      merge(read_backends_file(beside.string()));
  }
  if (!o.backends.empty())
    merge(read_backends_file(o.backends));
  for (const auto& b : o.backend) {
    const auto [label, p] = parse_backend_option(b);
    out[label] = p;
  }
  return out;
}

} // namespace dlsize::analysis
