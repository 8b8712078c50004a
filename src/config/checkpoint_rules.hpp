#pragma once
// The rules of `dlsize checkpoint`'s options, in one place: required keys, counts and their
// ranges, the percents, and the sizes and durations as typed. cli/ parses the options into a
// checkpoint_request and calls check_checkpoint_request; the rules that need the I/O layer
// (--cache, --queue-depth against RAM, --drop-caches) or the job's ranks (the layout) are
// pipeline::check_checkpoint_options'. Every rule throws usage_error naming the option and what
// is valid.
#include <cstdint>
#include <set>
#include <string>

#include "core/defaults.hpp"

namespace dlsize::config {

// A checkpoint request's options as given: sizes and durations as typed, so messages quote them.
struct checkpoint_request {
  std::string workload;
  std::string dir;
  std::uint64_t writes = 10, reads = 10;
  unsigned files_per_rank = 1;
  std::uint64_t keep_last = 0;
  unsigned dedupe_percent = 0, compress_percent = 0;
  std::string request_size = core::defaults::request_size_text;
  std::string time_limit;                                         // empty: none
  std::string stall_timeout = core::defaults::stall_timeout_text; // 0: never
  std::string label;
  // The long options given on the command line ("--label").
  std::set<std::string> given;
  bool has(const std::string& option) const { return given.count(option) > 0; }
};

// What the rules resolve: sizes in bytes, durations in seconds (0: none or never).
struct checkpoint_values {
  std::uint32_t request_size = 0;
  double time_limit_s = 0;
  double stall_timeout_s = 0;
};

// Throws usage_error for the first rule the request breaks.
checkpoint_values check_checkpoint_request(const checkpoint_request& r);

} // namespace dlsize::config
