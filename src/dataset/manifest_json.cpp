// The dataset manifest (dlsize-dataset.json, schema dlsize.dataset/1): the only place its JSON is
// made (manifest_json, dataset_params::to_json) and read (layout_from_manifest,
// dataset_params::from_json).
#include <fmt/format.h>

#include "core/error.hpp"
#include "core/json_checks.hpp"
#include "core/json_input.hpp"
#include "core/value_rule.hpp"
#include "dataset/datagen.hpp"
#include "dataset/layout.hpp"
#include "dlsize/build_config.hpp"

namespace dlsize::dataset {

nlohmann::json dataset_params::to_json() const {
  nlohmann::json j = {
      {"workload", workload},
      {"layout", config::to_string(layout)},
      {"format", format},
      {"records_per_file", records_per_file},
      {"files", files},
      {"sample_bytes", {{"mean", sample_bytes_mean}, {"stdev", sample_bytes_stdev}}},
      {"seed", seed}};
  if (!histogram.empty())
    j["sample_bytes"]["histogram"] = histogram.to_json();
  return j;
}

dataset_params dataset_params::from_json(const nlohmann::json& j, const std::string& source) {
  core::json_checker c(source);
  dataset_params p;
  p.workload = c.string(j, "", "workload");
  p.layout = config::parse_layout(c.string(j, "", "layout"), source + ": layout");
  p.format = c.string(j, "", "format");
  p.records_per_file = c.integer(j, "", "records_per_file", 1, config::kMaxRecordsPerFile);
  p.files = c.integer(j, "", "files", 1, config::kMaxDatasetFiles);
  check_shape(p.files, p.records_per_file, source + ": params.files",
              source + ": params.records_per_file");
  const auto& sb = c.object(j, "", "sample_bytes");
  p.sample_bytes_mean = c.number(sb, "sample_bytes", "mean", 64, 4e9);
  p.sample_bytes_stdev = c.number(sb, "sample_bytes", "stdev", 0, 4e9);
  if (sb.contains("histogram"))
    p.histogram =
        config::size_histogram::from_json(sb["histogram"], source + ": sample_bytes.histogram");
  p.seed = c.integer(j, "", "seed", 0, UINT64_MAX);
  return p;
}

nlohmann::json manifest_json(const dataset_layout& layout, const char* state,
                             const std::string& generation) {
  nlohmann::json j = {{"schema", "dlsize.dataset/1"},
                      {"state", state},
                      {"dataset_id", fmt::format("{:016x}", layout.params().dataset_id())},
                      {"params", layout.params().to_json()},
                      {"files", layout.files()},
                      {"records", layout.records()},
                      {"bytes", layout.total_bytes()},
                      {"files_per_dir", kFilesPerDir},
                      {"record_format",
                       "dlsize record v1: 32-byte header (magic DLSR, version, header "
                       "bytes, dataset id, record index, payload bytes, payload crc32c)"},
                      {"created_by", "dlsize " DLSIZE_VERSION}};
  if (!generation.empty())
    j["generation"] = generation;
  return j;
}

std::string generation_from_json(const nlohmann::json& state) {
  return state.is_object() ? state.value("generation", "") : "";
}

dataset_params params_of_manifest(const nlohmann::json& manifest, const std::string& source) {
  if (!manifest.is_object() || !manifest.contains("params"))
    throw usage_error(
        fmt::format("{}: not a dlsize manifest; dlsize will not touch this prefix", source));
  return dataset_params::from_json(core::json_checker(source).object(manifest, "", "params"),
                                   source);
}

namespace {

// The manifest's own figures follow from its params; each is checked by the rule every value a
// user gives is (core::value_rule), then against the layout, so an edited manifest is refused
// naming the key instead of read as another dataset.
void check_manifest_figures(const nlohmann::json& j, const dataset_layout& layout,
                            const std::string& source) {
  const core::value_rule count = core::count_rule(0, UINT64_MAX);
  const std::pair<const char*, std::uint64_t> figures[] = {{"files", layout.files()},
                                                           {"records", layout.records()},
                                                           {"bytes", layout.total_bytes()},
                                                           {"files_per_dir", kFilesPerDir}};
  for (const auto& [key, expected] : figures) {
    if (!j.contains(key))
      continue; // older manifests may lack a figure; the params decide
    core::check_json(count, j[key], fmt::format("{}: {}", source, key));
    if (j[key].get<std::uint64_t>() != expected)
      throw usage_error(fmt::format("{}: {}: {} does not follow from the manifest's params. valid: "
                                    "{} (the manifest as dlsize datagen wrote it)",
                                    source, key, j[key].dump(), expected));
  }
  // The id is a name others use (reports, the records' headers): 16 hex digits that follow
  // from the params, never a path or other text.
  if (j.contains("dataset_id")) {
    const std::string want = fmt::format("{:016x}", layout.params().dataset_id());
    if (j["dataset_id"] != want)
      throw usage_error(fmt::format("{}: dataset_id: {} is not this dataset's id. valid: \"{}\" "
                                    "(16 hex digits that follow from the manifest's params)",
                                    source, j["dataset_id"].dump(), want));
  }
  if (j.contains("state")) {
    core::check_json(core::text_rule(), j["state"], source + ": state");
    if (j["state"] != "complete")
      throw usage_error(fmt::format("{}: state: {} is not valid. valid: \"complete\" (an "
                                    "unfinished generation is resumed by dlsize datagen)",
                                    source, j["state"].dump()));
  }
}
} // namespace

dataset_layout layout_from_manifest(std::string_view text, const fs::path& root,
                                    const std::string& source) {
  const nlohmann::json j = core::parse_json(text, source, core::kManifestJson);
  if (!j.is_object() || j.value("schema", "") != "dlsize.dataset/1")
    throw usage_error(fmt::format("{}: schema: expected 'dlsize.dataset/1'", source));
  auto params =
      dataset_params::from_json(core::json_checker(source).object(j, "", "params"), source);
  dataset_layout layout(root, params);
  check_manifest_figures(j, layout, source);
  return layout;
}

} // namespace dlsize::dataset
