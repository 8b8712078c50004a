#pragma once
// `dlsize plan`: the what-if that needs no runs. From a profile's accelerator preset: the
// read rate one accelerator needs (batch × bytes per sample / compute time), the bandwidth N
// accelerators need to reach the AU threshold (AU = rate / demand when storage limits, so
// N · demand · threshold), the most accelerators a bandwidth supports at the threshold, and the
// dataset a valid run needs (MLPerf Storage: ≥ 5 × the clients' RAM and ≥ 500 steps per epoch).
// Bytes the storage serves include the read amplification of the cache mode and layout
// (analysis/read_amplification); the clients' NICs (line rate × efficiency × clients) cap
// what any storage can deliver; with a dataset size, the epoch time and time to train.
#include <cstdint>
#include <optional>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "analysis/object_requests.hpp"
#include "analysis/plan_document.hpp"
#include "config/accelerator_spec.hpp"
#include "config/workload.hpp"
#include "core/defaults.hpp"
#include "dataset/index_reads.hpp"
#include "io/engine.hpp"
#include "report/mlperf_validity.hpp"

namespace dlsize::analysis {

inline constexpr const char* kPlanSchema = "dlsize.plan/1";
inline constexpr std::uint64_t kMinStepsPerEpoch = report::kMlperfMinStepsPerEpoch;
inline constexpr double kMinDatasetOverRam = report::kMlperfMinDatasetOverRam;

// A dataset's shape measured on its index (dlsize index, dataset::index_read_shape): its real
// samples and files, and the bytes and requests the engines' rule (io::span_of) reads for them,
// instead of the profile's mean and layout.
struct measured_dataset {
  std::string index, dir, digest; // the index file, the folder it lists, its digest
  std::uint64_t files = 0, samples = 0;
  double file_bytes = 0, sample_bytes = 0;          // totals
  std::uint32_t request_size = 0;                   // the requests below are of at most this
  double direct_bytes = 0, direct_requests = 0;     // O_DIRECT reads of every sample
  double buffered_bytes = 0, buffered_requests = 0; // buffered and uncached reads
  dataset::size_summary sample_distribution;        // index stats' sample_bytes
  double mean() const { return samples ? sample_bytes / static_cast<double>(samples) : 0; }
  // From dataset::index_read_shape; throws usage_error naming `where` when it holds no sample.
  static measured_dataset of(const dataset::index_read_shape_result& s, const std::string& where);
};

struct plan_inputs {
  config::workload_profile workload;
  config::accelerator_spec accelerator;
  double au_threshold = core::defaults::au_threshold;
  double storage_bandwidth = 0;   // bytes/s; 0: not given
  double row_bandwidth = 0;       // plan --measured-bandwidth: a row's bytes/s; 0: not given
  std::uint64_t accelerators = 0; // 0: not given
  std::uint64_t client_ram = 0;   // bytes per client; 0: not given
  std::uint64_t clients = 1;
  io::cache_mode cache = io::cache_mode::direct;             // for the read amplification
  std::uint32_t request_size = core::defaults::request_size; // bytes per request, for IOPS
  // plan --s3 without --request-size: a GET per object or record, as the s3 engine reads.
  static constexpr std::uint32_t kWholeObject = ~std::uint32_t{0};
  double dataset_bytes = 0;                 // for epoch time; 0: not given
  double epochs = 0;                        // for the time to train; 0: not given
  double nic_bandwidth = 0;                 // line rate per client, bytes/s; 0: none
  double nic_efficiency = 0.8;              // share of the line rate reached in practice
  std::optional<measured_dataset> measured; // plan --index: the dataset's real shape
  // plan --accelerators-per-host: what one client host must sustain; 0: not asked.
  std::uint64_t accelerators_per_host = 0;
  // plan --s3: the dataset is read from an object store (GETs of byte-exact ranges, no cache),
  // under these assumptions about it.
  std::optional<object_store_assumptions> object_store;
  // Bytes of one sample: the measured mean with an index, else the profile's.
  double sample_bytes() const { return measured ? measured->mean() : workload.sample_bytes_mean; }
};

// The Ethernet line rates per_host judges one NIC by (GbE), the rates MLPerf Storage v3.0
// submitters' clients use.
inline constexpr double kHostNicGbE[] = {100, 200, 400};

// The plan's read side (plan_document::reads). Throws usage_error for a zero compute time (no
// finite demand).
plan_reads make_plan(const plan_inputs& in);

// plan --s3: what the plan's accelerators ask of the object store in.object_store describes,
// from the read side make_plan made of the same inputs.
object_plan plan_objects(const plan_inputs& in, const plan_reads& plan);

// The whole read side as plan prints and writes it: make_plan, the allreduce's scaling when
// `allreduce` asks for one (options `given` on the command line; throws usage_error for
// allreduce options without --allreduce), and with in.object_store the object store's side.
plan_reads plan_read_side(const plan_inputs& in, const config::allreduce_request& allreduce,
                          const std::set<std::string>& given);

} // namespace dlsize::analysis
