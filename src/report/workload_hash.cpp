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

// The keys' values in a report's JSON (null where it has none) and their hash.
workload_hash_section workload_hash_from(const nlohmann::json& report) {
  nlohmann::json keys = nlohmann::json::object();
  for (const char* k : kKeys) {
    const nlohmann::json::json_pointer ptr(k);
    keys[std::string(k).substr(1)] = report.contains(ptr) ? report.at(ptr) : nlohmann::json();
  }
  workload_hash_section h;
  h.algorithm = std::string("sha256");
  h.allowlist = std::string(kWorkloadHashKeys);
  h.sha256 = sha256_hex(keys.dump());
  h.keys = std::move(keys);
  return h;
}

} // namespace

workload_hash_section workload_hash_of(const bench_report& r) {
  return workload_hash_from(r.to_json());
}

nlohmann::json workload_hash_json(const nlohmann::json& report) {
  return section_to_json(workload_hash_from(report));
}

} // namespace dlsize::report
