#include "config/accelerator_spec.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/json_checks.hpp"
#include "core/json_input.hpp"

namespace dlsize::config {

using core::names_a_file;
using core::parse_json;
namespace {

std::string known_types(const workload_profile& w) {
  std::vector<std::string> t;
  for (const auto& [name, p] : w.accelerators)
    t.push_back("emulated:" + name);
  return t.empty() ? std::string("(the profile defines no accelerator types)")
                   : fmt::format("{}", fmt::join(t, ", "));
}

} // namespace

void require_trainable(const workload_profile& w) {
  if (w.network)
    return;
  std::vector<std::string> ok;
  for (const auto& n : known_workloads())
    if (load_workload(n).network)
      ok.push_back(n);
  throw usage_error(fmt::format("--accelerator cuda: workload '{}' has no model.layers to train. "
                                "valid: {}, or a profile with model.layers (docs/workloads.md)",
                                w.name, fmt::join(ok, ", ")));
}

accelerator_preset parse_calibration(const std::string& json_text, const std::string& source,
                                     const std::string& workload) {
  const calibration_document d =
      from_json(parse_json(json_text, source, core::kCalibrationJson), source, workload);
  accelerator_preset p;
  p.name = d.accelerator;
  p.batch_size = d.batch_size;
  p.compute_time_s = d.compute_time_s;
  p.compute_time_stdev_s = d.compute_time_stdev_s.value_or(0);
  p.source = d.source.value_or("calibration " + source);
  p.gpu_name = d.gpu_name.value_or("");
  p.precision = d.precision.value_or("");
  return p;
}

accelerator_spec resolve_accelerator(const std::string& spec, const workload_profile& w,
                                     const preset_overrides& over,
                                     const std::function<void()>& require_device) {
  accelerator_spec a;
  if (spec == "none") {
    if (over.batch_size || over.compute_time_s || over.compute_time_stdev_s)
      throw usage_error(
          "--batch-size, --compute-time and --compute-time-stdev need an accelerator. "
          "valid: --accelerator " +
          known_types(w));
    return a;
  }
  if (spec == "cuda") {
    // What is missing comes first: the backend, its libraries, the driver, the device.
    if (require_device)
      require_device();
    require_trainable(w);
    if (over.compute_time_s || over.compute_time_stdev_s)
      throw usage_error(
          "--compute-time and --compute-time-stdev: with --accelerator cuda the GPU's "
          "own step time is measured. valid: leave them out, or --accelerator emulated:TYPE");
    a.kind = accelerator_kind::cuda;
    a.type = "cuda";
    a.origin = "workload " + w.name + " model.layers";
    a.preset.name = "cuda";
    a.preset.batch_size = over.batch_size ? *over.batch_size : w.network->batch_size;
    a.preset.source = "the model's real training step on the GPU (CUDA events)";
    return a;
  }
  const std::string prefix = "emulated:";
  if (spec.rfind(prefix, 0) != 0 || spec.size() == prefix.size())
    throw usage_error(fmt::format("--accelerator: invalid value '{}'. valid: none, {}, or "
                                  "emulated:FILE.json (a calibration)",
                                  spec, known_types(w)));
  const std::string type = spec.substr(prefix.size());
  a.kind = accelerator_kind::emulated;
  if (names_a_file(type)) {
    a.preset = parse_calibration(core::read_input_file(type, core::kCalibrationJson), type, w.name);
    a.type = a.preset.name;
    a.origin = type;
  } else {
    const auto it = w.accelerators.find(type);
    if (it == w.accelerators.end())
      throw usage_error(fmt::format("--accelerator: workload '{}' has no accelerator type '{}'. "
                                    "known: {}; or emulated:FILE.json (a calibration)",
                                    w.name, type, known_types(w)));
    a.preset = it->second;
    a.type = type;
    a.origin = "workload " + w.name;
  }
  if (over.batch_size) {
    if (*over.batch_size < 1 || *over.batch_size > 1'000'000)
      throw usage_error(
          fmt::format("--batch-size: {} is out of range. valid: 1 to 1,000,000", *over.batch_size));
    a.preset.batch_size = *over.batch_size;
    a.preset.source += "; batch size from --batch-size";
  }
  if (over.compute_time_s) {
    if (!(*over.compute_time_s >= 0))
      throw usage_error(fmt::format(
          "--compute-time: {} s is negative. valid: a time of at least 0 s, such as 224ms",
          *over.compute_time_s));
    a.preset.compute_time_s = *over.compute_time_s;
    a.preset.source += "; compute time from --compute-time";
  }
  if (over.compute_time_stdev_s) {
    if (!(*over.compute_time_stdev_s >= 0))
      throw usage_error("--compute-time-stdev: must be at least 0 s");
    a.preset.compute_time_stdev_s = *over.compute_time_stdev_s;
  }
  return a;
}

} // namespace dlsize::config
