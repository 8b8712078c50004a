#pragma once
// The rules of size's options, in one place: the output prefix, the headroom, the target
// cluster's clients, NIC and RAM, and the cache model. cli/ parses the options into a
// size_options and calls these; every rule throws usage_error naming the option and what is
// valid.
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/goodput_options.hpp"
#include "analysis/sizing_report.hpp"
#include "core/defaults.hpp"

namespace dlsize::analysis {

// size's options as given: rates, sizes and fractions as typed, so that messages quote them.
struct size_options {
  std::string out; // the prefix of PREFIX.json, .md, .html
  std::vector<double> targets = {64, 128, 256};
  std::vector<double> growth = {1, 2, 4};
  double headroom = 1.2;
  std::string nic_bandwidth; // empty: not given
  std::string nic_efficiency = "0.8";
  std::uint64_t clients = 1;
  std::string client_ram; // empty: from the reports
  std::string front_end_bandwidth;
  std::string cache_model = "auto";
  std::string cache_bytes; // the old name of --client-ram, refused
  std::uint64_t accelerators_per_node = 0;
  std::string rules =
      core::defaults::rules_text;   // --rules: the MLPerf Storage edition points are judged by
  std::string dataset_size;         // --dataset-size: the capacity's dataset; empty: the runs'
  std::vector<std::string> backend; // --backend LABEL:price_per_tb=…, each
  std::string backends;             // --backends FILE (dlsize.backends/1)
  goodput_request goodput;          // --mttf, --max-loss, --restart-overhead, ...
};

// --out: a prefix that is not empty. Checked before the output files are reserved.
void check_out_prefix(const std::string& out);

// The sizing request of every option but --out (checked after the files are reserved, so that
// an existing output is named first).
sizing_request sizing_request_of(const size_options& o);

// The buyer's prices: a backends.json in any folder among inputs, then --backends FILE, then
// each --backend (a later source wins for a label). Throws usage_error as
// read_backends_file and parse_backend_option do.
price_list prices_of(const size_options& o, const std::vector<std::string>& inputs);

} // namespace dlsize::analysis
