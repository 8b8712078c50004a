#include "config/workload.hpp"

#include <fmt/format.h>

#include "config/embedded_workloads.hpp"
#include "core/defaults.hpp"
#include "core/error.hpp"
#include "core/json_checks.hpp"
#include "core/json_input.hpp"

namespace dlsize::config {

using core::json_checker;
using core::names_a_file;
using core::parse_json;

std::string to_string(file_layout l) {
  return std::string(core::name_of(l));
}

file_layout parse_layout(const std::string& text, const std::string& where) {
  return core::parse_enum<file_layout>(text, where, "layout");
}

namespace {

// The "dataset" block: the layout a loader meets and the sizes of its samples.
void parse_dataset(const nlohmann::json& d, const json_checker& c, const std::string& source,
                   workload_profile& p) {
  c.only_keys(d, "dataset", {"layout", "format", "records_per_file", "files", "sample_bytes"});
  p.layout = parse_layout(c.string(d, "dataset", "layout"), source + ": dataset.layout");
  if (d.contains("format"))
    p.format = c.string(d, "dataset", "format");
  p.records_per_file = c.integer_or(d, "dataset", "records_per_file", 1, kMaxRecordsPerFile, 1);
  if (p.layout == file_layout::files && p.records_per_file != 1)
    c.fail("dataset.records_per_file", "must be 1 for layout 'files'");
  p.files = c.integer_or(d, "dataset", "files", 1, kMaxDatasetFiles, 1024);
  const auto& sb = c.object(d, "dataset", "sample_bytes");
  c.only_keys(sb, "dataset.sample_bytes", {"mean", "stdev", "histogram", "source"});
  p.sample_bytes_mean = c.number(sb, "dataset.sample_bytes", "mean", 64, 4e9);
  p.sample_bytes_stdev = c.number_or(sb, "dataset.sample_bytes", "stdev", 0, 4e9, 0);
  if (sb.contains("histogram"))
    p.sample_bytes_histogram =
        size_histogram::from_json(sb["histogram"], source + ": dataset.sample_bytes.histogram");
  if (sb.contains("source"))
    p.sample_bytes_source = c.string(sb, "dataset.sample_bytes", "source");
}

} // namespace

workload_profile parse_workload(const std::string& json_text, const std::string& source) {
  json_checker c(source);
  const nlohmann::json j = parse_json(json_text, source, core::kWorkloadJson);
  c.only_keys(j, "",
              {"schema", "name", "description", "source", "dataset", "au_threshold", "epochs",
               "epochs_source", "accelerators", "model", "checkpoint"});
  // Optional, as profiles written by hand before it have none; another kind is refused.
  if (j.contains("schema") && c.string(j, "", "schema") != kWorkloadSchema)
    c.fail("schema", fmt::format("{} is not a workload profile's. valid: {}", j["schema"].dump(),
                                 kWorkloadSchema));
  workload_profile p;
  p.raw = j;
  p.origin = source;
  p.name = c.string(j, "", "name");
  if (j.contains("description"))
    p.description = c.string(j, "", "description");
  if (j.contains("checkpoint"))
    p.checkpoint = parse_checkpoint(c.object(j, "", "checkpoint"), c);
  // A checkpoint-only profile has no dataset; every other profile must have one.
  p.has_dataset = j.contains("dataset") || !p.checkpoint;
  if (p.has_dataset)
    parse_dataset(c.object(j, "", "dataset"), c, source, p);
  p.au_threshold = c.number_or(j, "", "au_threshold", 0, 1, core::defaults::au_threshold);
  p.epochs = c.integer_or(j, "", "epochs", 1, 1'000'000, 0);
  if (j.contains("epochs_source"))
    p.epochs_source = c.string(j, "", "epochs_source");
  if (j.contains("accelerators")) {
    const auto& acc = c.object(j, "", "accelerators");
    for (const auto& [name, a] : acc.items()) {
      const std::string path = "accelerators." + name;
      c.only_keys(a, path,
                  {"batch_size", "compute_time_s", "compute_time_stdev_s", "source", "mlperf_v3"});
      accelerator_preset ap;
      ap.name = name;
      ap.batch_size = c.integer(a, path, "batch_size", 1, 1'000'000);
      ap.compute_time_s = c.number(a, path, "compute_time_s", 0, 3600);
      ap.compute_time_stdev_s = c.number_or(a, path, "compute_time_stdev_s", 0, 3600, 0);
      if (a.contains("source"))
        ap.source = c.string(a, path, "source");
      if (a.contains("mlperf_v3")) {
        ap.mlperf_v3 = c.string(a, path, "mlperf_v3");
        if (ap.mlperf_v3 != "closed" && ap.mlperf_v3 != "whatif")
          c.fail(path + ".mlperf_v3",
                 fmt::format("'{}' is not a v3.0 standing. valid: closed (CLOSED and OPEN), "
                             "whatif (the non-submittable what-if mode)",
                             ap.mlperf_v3));
      }
      p.accelerators.emplace(name, ap);
    }
  }
  if (j.contains("model")) {
    p.model = c.object(j, "", "model");
    c.only_keys(p.model, "model",
                {"name", "parameters", "forward_macs", "input", "source", "batch_size", "loss",
                 "layers", "backward_fraction"});
    c.number_or(p.model, "model", "backward_fraction", 0, 1, 2.0 / 3.0);
    if (p.model.contains("layers"))
      p.network = std::make_shared<const model::model_spec>(model::parse_model(p.model, source));
  }
  return p;
}

namespace {

std::string known_with(bool (*has)(const workload_profile&)) {
  std::vector<std::string> names;
  for (const auto& n : known_workloads())
    if (has(load_workload(n)))
      names.push_back(n);
  return fmt::format("{}", fmt::join(names, ", "));
}

} // namespace

void require_dataset(const workload_profile& w, const std::string& command) {
  if (w.has_dataset)
    return;
  throw usage_error(fmt::format(
      "--workload: '{}' is a checkpoint-only profile: it has no dataset for {} to {}. valid: "
      "a profile with a dataset ({}); for its checkpoints, dlsize checkpoint --workload {}",
      w.name, command, command == "datagen" ? "generate" : "read",
      known_with([](const workload_profile& p) { return p.has_dataset; }), w.name));
}

const checkpoint_profile& require_checkpoint(const workload_profile& w) {
  if (w.checkpoint)
    return *w.checkpoint;
  throw usage_error(fmt::format(
      "--workload: '{}' has no checkpoint block. valid: {}, or a profile with a \"checkpoint\" "
      "block (docs/checkpoint.md)",
      w.name, known_with([](const workload_profile& p) { return p.checkpoint.has_value(); })));
}

std::vector<std::string> known_workloads() {
  std::vector<std::string> names;
  for (const auto& w : embedded_workloads())
    names.emplace_back(w.name);
  return names;
}

workload_profile load_workload(const std::string& name_or_path) {
  if (names_a_file(name_or_path))
    return parse_workload(core::read_input_file(name_or_path, core::kWorkloadJson), name_or_path);
  for (const auto& w : embedded_workloads()) {
    if (w.name == name_or_path) {
      auto p = parse_workload(std::string(w.json), "workloads/" + std::string(w.name) + ".json");
      p.origin = "embedded";
      return p;
    }
  }
  throw usage_error(fmt::format("--workload: unknown workload '{}'. known: {}; or give a path to "
                                "a profile JSON file",
                                name_or_path, fmt::join(known_workloads(), ", ")));
}

} // namespace dlsize::config
