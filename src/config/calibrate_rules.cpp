#include "config/calibrate_rules.hpp"

#include <fmt/format.h>

#include "core/error.hpp"

namespace dlsize::config {

void check_calibrate_request(const calibrate_request& r) {
  if (!r.allreduce.empty()) {
    if (!r.workload.empty() || !r.accelerator.empty())
      throw usage_error(
          "--allreduce: fits a file of nccl-tests output; --workload and "
          "--accelerator measure a GPU's training step instead. valid: one or the other");
    return;
  }
  if (r.workload.empty())
    throw usage_error("--workload: required (or --allreduce FILE to fit nccl-tests output)");
  if (r.accelerator != "cuda")
    throw usage_error(fmt::format("--accelerator: calibrate measures a real GPU; '{}' is not one. "
                                  "valid: cuda",
                                  r.accelerator));
  if (r.algorithms != "search" && r.algorithms != "heuristic")
    throw usage_error(
        fmt::format("--algorithms: invalid value '{}'. valid: search, heuristic", r.algorithms));
  if (r.batch_size > 1'000'000)
    throw usage_error("--batch-size: valid: 1 to 1,000,000");
}

} // namespace dlsize::config
