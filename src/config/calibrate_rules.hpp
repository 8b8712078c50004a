#pragma once
// The rules of calibrate's options, in one place: --allreduce (fit nccl-tests output) or
// --workload with --accelerator cuda (measure a GPU's step), and the ranges of the measurement's
// options. cli/ parses the options into a calibrate_request and calls check_calibrate_request;
// every rule throws usage_error naming the option and what is valid. --precision is parsed where
// the CUDA options are (accel::parse_precision).
#include <cstdint>
#include <string>

namespace dlsize::config {

// A calibrate request's options as given.
struct calibrate_request {
  std::string workload;
  std::string accelerator;
  std::string allreduce; // nccl-tests all_reduce_perf output to fit; empty: measure a GPU
  std::string algorithms = "search";
  std::uint64_t batch_size = 0; // 0: the profile's
};

// Throws usage_error for the first rule the request breaks.
void check_calibrate_request(const calibrate_request& r);

} // namespace dlsize::config
