#pragma once
// A workload profile: what a training job's data looks like on disk and how fast each kind of
// accelerator consumes it. Profiles are data (workloads/*.json, compiled in); a user adds one
// by file path. Parsing rejects unknown keys and bad values with their key path.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "config/checkpoint_profile.hpp"
#include "config/size_histogram.hpp"
#include "core/defaults.hpp"
#include "core/enum_names.hpp"
#include "model/model_spec.hpp"

namespace dlsize::config {

// A profile's "schema" (docs/workload.schema.json), written by dlsize index stats
// --emit-workload and by the profiles in workloads/; optional in one written by hand.
inline constexpr const char* kWorkloadSchema = "dlsize.workload/1";

enum class file_layout { files, shards };
inline constexpr core::enum_table<file_layout, 2> kFileLayoutNames{
    {{file_layout::files, "files", "one sample per file"},
     {file_layout::shards, "shards", "many records per file"}}};
constexpr const auto& names_of(file_layout) {
  return kFileLayoutNames;
}

// The ranges a dataset's shape is held to wherever it is given: profiles, datagen's options,
// manifests read by bench and verify (dataset::check_shape adds their product's bound).
// 8 Mi records per file: MLPerf Storage v3.0's dlrm writes 4,718,592 rows per Parquet file.
inline constexpr std::uint64_t kMaxRecordsPerFile = 8'388'608;
inline constexpr std::uint64_t kMaxDatasetFiles = 1'000'000'000;
std::string to_string(file_layout l);
file_layout parse_layout(const std::string& text, const std::string& where);

struct accelerator_preset {
  std::string name;
  std::uint64_t batch_size = 1;
  double compute_time_s = 0;       // per batch
  double compute_time_stdev_s = 0; // spread, 0 for a scalar
  std::string source;
  // MLPerf Storage v3.0's standing of this preset: "closed" (submittable, CLOSED and OPEN),
  // "whatif" (the non-submittable what-if mode), empty where v3.0 has no such configuration.
  std::string mlperf_v3;
  // From a calibration by `dlsize calibrate`: the GPU and precision measured (empty otherwise).
  std::string gpu_name;
  std::string precision;
};

struct workload_profile {
  std::string name;
  std::string description;
  std::string origin; // "embedded" or the file it came from
  // False for a checkpoint-only profile (llama3-*): nothing to generate or read.
  bool has_dataset = true;
  // Dataset as the workload's loader meets it.
  file_layout layout = file_layout::files;
  std::string format; // "tfrecord", "npz", "jpeg": what the layout imitates
  std::uint64_t records_per_file = 1;
  std::uint64_t files = 0; // the published dataset's file count (a default for datagen)
  double sample_bytes_mean = 0;
  double sample_bytes_stdev = 0;
  size_histogram sample_bytes_histogram; // empty: mean and stdev give the shape
  std::string sample_bytes_source;
  double au_threshold = core::defaults::au_threshold;
  // The epochs the workload trains (MLPerf Storage's run length); 0: the profile names none.
  std::uint64_t epochs = 0;
  std::string epochs_source;
  std::map<std::string, accelerator_preset> accelerators;
  nlohmann::json model; // model facts (parameters, MACs, input, source); kept as given
  // The trainable model of model.layers, parsed and shape-checked; null without layers.
  std::shared_ptr<const model::model_spec> network;
  std::optional<checkpoint_profile> checkpoint; // absent: the profile saves none
  nlohmann::json raw;                           // the profile as parsed, for the report
};

// Throws usage_error (exit 2) when the profile has no dataset, naming the command that needs
// one and the profiles that have one.
void require_dataset(const workload_profile& w, const std::string& command);
// Throws usage_error when the profile has no checkpoint block, naming those that have one.
const checkpoint_profile& require_checkpoint(const workload_profile& w);

// Parses a profile from JSON text; source names it in errors.
workload_profile parse_workload(const std::string& json_text, const std::string& source);

// NAME of an embedded profile, or a path to a JSON file (anything with '/' or ending in .json).
// Throws usage_error listing the known names when NAME is unknown.
workload_profile load_workload(const std::string& name_or_path);

std::vector<std::string> known_workloads();

} // namespace dlsize::config
