#include "report/workload_hash.hpp"

#include <string>

#include "core/sha256.hpp"

namespace dlsize::report {
namespace {

// The load's settings: the workload and emulated accelerator, the dataset's shape and the job's
// accelerators, epochs and AU threshold.
constexpr const char* kKeys[] = {"/workload/name",
                                 "/workload/layout",
                                 "/workload/format",
                                 "/workload/epochs",
                                 "/workload/mean_sample_bytes",
                                 "/workload/accelerator/type",
                                 "/workload/accelerator/batch_size",
                                 "/workload/accelerator/compute_time_s",
                                 "/workload/accelerator/compute_time_stdev_s",
                                 "/dataset/files",
                                 "/dataset/records_per_file",
                                 "/dataset/samples",
                                 "/dataset/bytes",
                                 "/topology/accelerators",
                                 "/summary/epochs",
                                 "/summary/au_threshold"};

} // namespace

nlohmann::json workload_hash_json(const nlohmann::json& report) {
  nlohmann::json keys = nlohmann::json::object();
  for (const char* k : kKeys) {
    const nlohmann::json::json_pointer ptr(k);
    keys[std::string(k).substr(1)] = report.contains(ptr) ? report.at(ptr) : nlohmann::json();
  }
  return {{"algorithm", "sha256"},
          {"allowlist", kWorkloadHashKeys},
          {"keys", keys},
          {"sha256", sha256_hex(keys.dump())}};
}

} // namespace dlsize::report
