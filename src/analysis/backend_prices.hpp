#pragma once
// A buyer's own figures for each backend: what a TB of usable capacity and a GB/s of delivered
// bandwidth cost, and how much capacity is usable. They are inputs only, never defaults: dlsize
// ships no price list. Given on the command line (`--backend LABEL:price_per_tb=…,…`) or in a
// `backends.json` ("schema": "dlsize.backends/1") named by `--backends` or lying beside the
// reports; the command line wins for a label both name.
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace dlsize::analysis {

inline constexpr const char* kBackendsSchema = "dlsize.backends/1";

struct backend_prices {
  std::optional<double> price_per_tb;   // per TB (10¹² bytes) of usable capacity
  std::optional<double> price_per_gbps; // per GB/s (10⁹ bytes/s) of read bandwidth provisioned
  std::optional<double> usable_tb;      // the usable capacity on offer
  std::string source;                   // "--backend" or the file's path
  bool priced() const { return price_per_tb || price_per_gbps; }
};

// Prices by backend label.
using price_list = std::map<std::string, backend_prices>;

// One `--backend` value: "LABEL:price_per_tb=120,price_per_gbps=900,usable_tb=2000" (keys in any
// order, each at most once, values numbers ≥ 0). Throws usage_error naming the option, the key
// and what is valid.
std::pair<std::string, backend_prices> parse_backend_option(const std::string& text);

// A backends.json file's prices. Throws usage_error naming the file, the key and what is valid.
price_list read_backends_file(const std::string& path);

// The prices of a backend known by its name in the sizing (the label, or "PATH (FS)") and its
// --label: by name first, then label; null where none is given.
const backend_prices* prices_of(const price_list& prices, const std::string& name,
                                const std::string& label);

} // namespace dlsize::analysis
