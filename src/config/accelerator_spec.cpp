#include "config/accelerator_spec.hpp"

#include <fmt/format.h>

#include "core/error.hpp"
#include "core/json_checks.hpp"
#include "core/json_input.hpp"

namespace dlsize::config {

using core::json_checker;
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
  json_checker c(source);
  const nlohmann::json j = parse_json(json_text, source, core::kCalibrationJson);
  if (!j.is_object())
    c.fail("", "must be a JSON object");
  c.only_keys(j, "",
              {"schema", "workload", "accelerator", "batch_size", "compute_time_s",
               "compute_time_stdev_s", "source", "measured", "gpu_name", "precision", "steps",
               "warmup_steps", "compute_time_min_s", "compute_time_median_s", "compute_time_p95_s",
               "compute_time_max_s", "samples_per_s", "loss"});
  const std::string schema = c.string(j, "", "schema");
  if (schema != kCalibrationSchema)
    c.fail("schema",
           fmt::format("'{}' is not a calibration. valid: {}", schema, kCalibrationSchema));
  const std::string wl = c.string(j, "", "workload");
  if (wl != workload)
    c.fail("workload",
           fmt::format("calibrated for '{}', but the run's workload is '{}'", wl, workload));
  accelerator_preset p;
  p.name = c.string(j, "", "accelerator");
  p.batch_size = c.integer(j, "", "batch_size", 1, 1'000'000);
  p.compute_time_s = c.number(j, "", "compute_time_s", 0, 3600);
  p.compute_time_stdev_s = c.number_or(j, "", "compute_time_stdev_s", 0, 3600, 0);
  p.source = j.contains("source") ? c.string(j, "", "source") : "calibration " + source;
  if (j.contains("gpu_name"))
    p.gpu_name = c.string(j, "", "gpu_name");
  if (j.contains("precision")) {
    p.precision = c.string(j, "", "precision");
    if (p.precision != "fp16" && p.precision != "tf32" && p.precision != "fp32")
      c.fail("precision",
             fmt::format("'{}' is not a precision. valid: fp16, tf32, fp32", p.precision));
  }
  c.integer_or(j, "", "steps", 1, 1'000'000'000, 1);
  c.integer_or(j, "", "warmup_steps", 0, 1'000'000'000, 0);
  double lo = 0, hi = 3600;
  for (const char* k :
       {"compute_time_min_s", "compute_time_median_s", "compute_time_p95_s", "compute_time_max_s"})
    lo = c.number_or(j, "", k, lo, hi, lo);
  if (j.contains("compute_time_min_s") && j.contains("compute_time_max_s") &&
      !(j["compute_time_min_s"].get<double>() <= p.compute_time_s &&
        p.compute_time_s <= j["compute_time_max_s"].get<double>()))
    c.fail("compute_time_s", "lies outside compute_time_min_s to compute_time_max_s");
  c.number_or(j, "", "samples_per_s", 0, 1e12, 0);
  if (j.contains("loss")) {
    const auto& l = c.object(j, "", "loss");
    c.only_keys(l, "loss", {"first", "last", "falling"});
  }
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
