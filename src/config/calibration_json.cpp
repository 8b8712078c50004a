// The JSON of a calibration_document ("schema": "dlsize.calibration/1"): the one place a
// calibration's keys are written and read.
#include <fmt/format.h>

#include "config/calibration_document.hpp"
#include "core/json_checks.hpp"

namespace dlsize::config {
namespace {

// The value at key when it is there and of type T.
template <typename T> std::optional<T> typed_at(const nlohmann::json& obj, const char* key) {
  const auto it = obj.find(key);
  if (it == obj.end())
    return std::nullopt;
  const nlohmann::json& v = *it;
  bool ok = false;
  if constexpr (std::is_same_v<T, std::string>)
    ok = v.is_string();
  else if constexpr (std::is_same_v<T, bool>)
    ok = v.is_boolean();
  else if constexpr (std::is_same_v<T, double>)
    ok = v.is_number_float();
  else if constexpr (std::is_same_v<T, std::uint64_t>)
    ok = v.is_number_unsigned();
  else if constexpr (std::is_same_v<T, nlohmann::json>)
    ok = true;
  if (!ok)
    return std::nullopt;
  return v.get<T>();
}

// calibrate's loss block, when l has exactly its keys and types.
std::optional<calibration_loss> loss_of(const nlohmann::json& l) {
  const auto first = typed_at<double>(l, "first"), last = typed_at<double>(l, "last");
  const auto falling = typed_at<bool>(l, "falling");
  if (!first || !last || !falling || l.size() != 3)
    return std::nullopt;
  return calibration_loss{*first, *last, *falling};
}

// Each field of calibrate's measured block but op_time_ms, by key (m: a calibration_measured,
// const or not).
template <typename M, typename F> void each_measured_field(M& m, F&& field) {
  field("model", m.model);
  field("parameters", m.parameters);
  field("forward_macs_per_sample", m.forward_macs_per_sample);
  field("wall_time_per_step_s", m.wall_time_per_step_s);
  field("wall_time_per_step_stdev_s", m.wall_time_per_step_stdev_s);
  field("samples_per_s_wall", m.samples_per_s_wall);
  field("samples_per_s_event", m.samples_per_s_event);
  field("op_time_steps", m.op_time_steps);
  field("overflow_skipped_steps", m.overflow_skipped_steps);
  field("learning_rate", m.learning_rate);
  field("algorithms", m.algorithms);
  field("pci_bus_id", m.pci_bus_id);
  field("device_memory_used_bytes", m.device_memory_used_bytes);
  field("backend", m.backend);
  field("tool", m.tool);
}

nlohmann::json to_json(const calibration_measured& m) {
  nlohmann::json j = {{"op_time_ms", m.op_time_ms}};
  each_measured_field(m, [&](const char* key, const auto& value) { j[key] = value; });
  return j;
}

// calibrate's measured block, when m has exactly its keys and types.
std::optional<calibration_measured> measured_of(const nlohmann::json& m) {
  if (!m.is_object())
    return std::nullopt;
  calibration_measured out;
  bool ok = true;
  std::size_t keys = 1; // op_time_ms
  each_measured_field(out, [&](const char* key, auto& value) {
    const auto v = typed_at<std::decay_t<decltype(value)>>(m, key);
    ok = ok && v.has_value();
    if (v)
      value = *v;
    ++keys;
  });
  const auto ops = typed_at<nlohmann::json>(m, "op_time_ms");
  if (!ok || !ops || !ops->is_object() || m.size() != keys)
    return std::nullopt;
  for (const auto& [kind, ms] : ops->items()) {
    if (!ms.is_number_float())
      return std::nullopt;
    out.op_time_ms[kind] = ms.get<double>();
  }
  return out;
}

template <typename T> void put(nlohmann::json& j, const char* key, const std::optional<T>& v) {
  if (v)
    j[key] = *v;
}

// The order statistics, each at least the one before it, and the mean within them.
void read_spread(const core::json_checker& c, const nlohmann::json& j, calibration_document& d) {
  double lo = 0;
  const double hi = 3600;
  for (auto [key, field] : {std::pair{"compute_time_min_s", &d.compute_time_min_s},
                            std::pair{"compute_time_median_s", &d.compute_time_median_s},
                            std::pair{"compute_time_p95_s", &d.compute_time_p95_s},
                            std::pair{"compute_time_max_s", &d.compute_time_max_s}}) {
    if (j.contains(key))
      *field = c.number(j, "", key, lo, hi);
    lo = field->value_or(lo);
  }
  if (d.compute_time_min_s && d.compute_time_max_s &&
      !(*d.compute_time_min_s <= d.compute_time_s && d.compute_time_s <= *d.compute_time_max_s))
    c.fail("compute_time_s", "lies outside compute_time_min_s to compute_time_max_s");
}

} // namespace

nlohmann::json to_json(const calibration_document& d) {
  nlohmann::json j = d.extra.is_object() ? d.extra : nlohmann::json::object();
  j["schema"] = kCalibrationSchema;
  j["workload"] = d.workload;
  j["accelerator"] = d.accelerator;
  j["batch_size"] = d.batch_size;
  j["compute_time_s"] = d.compute_time_s;
  put(j, "compute_time_stdev_s", d.compute_time_stdev_s);
  put(j, "compute_time_min_s", d.compute_time_min_s);
  put(j, "compute_time_median_s", d.compute_time_median_s);
  put(j, "compute_time_p95_s", d.compute_time_p95_s);
  put(j, "compute_time_max_s", d.compute_time_max_s);
  put(j, "samples_per_s", d.samples_per_s);
  put(j, "gpu_name", d.gpu_name);
  put(j, "precision", d.precision);
  put(j, "source", d.source);
  put(j, "steps", d.steps);
  put(j, "warmup_steps", d.warmup_steps);
  if (d.loss)
    j["loss"] = {{"first", d.loss->first}, {"last", d.loss->last}, {"falling", d.loss->falling}};
  if (d.measured)
    j["measured"] = to_json(*d.measured);
  return j;
}

calibration_document from_json(const nlohmann::json& j, const std::string& source,
                               std::string_view workload) {
  const core::json_checker c(source);
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
  calibration_document d;
  d.workload = c.string(j, "", "workload");
  if (!workload.empty() && d.workload != workload)
    c.fail("workload", fmt::format("calibrated for '{}', but the run's workload is '{}'",
                                   d.workload, workload));
  d.accelerator = c.string(j, "", "accelerator");
  d.batch_size = c.integer(j, "", "batch_size", 1, 1'000'000);
  d.compute_time_s = c.number(j, "", "compute_time_s", 0, 3600);
  if (j.contains("compute_time_stdev_s"))
    d.compute_time_stdev_s = c.number(j, "", "compute_time_stdev_s", 0, 3600);
  if (j.contains("source"))
    d.source = c.string(j, "", "source");
  if (j.contains("gpu_name"))
    d.gpu_name = c.string(j, "", "gpu_name");
  if (j.contains("precision")) {
    d.precision = c.string(j, "", "precision");
    if (d.precision != "fp16" && d.precision != "tf32" && d.precision != "fp32")
      c.fail("precision",
             fmt::format("'{}' is not a precision. valid: fp16, tf32, fp32", *d.precision));
  }
  if (j.contains("steps"))
    d.steps = c.integer(j, "", "steps", 1, 1'000'000'000);
  if (j.contains("warmup_steps"))
    d.warmup_steps = c.integer(j, "", "warmup_steps", 0, 1'000'000'000);
  read_spread(c, j, d);
  if (j.contains("samples_per_s"))
    d.samples_per_s = c.number(j, "", "samples_per_s", 0, 1e12);
  if (j.contains("loss")) {
    const auto& l = c.object(j, "", "loss");
    c.only_keys(l, "loss", {"first", "last", "falling"});
    d.loss = loss_of(l);
    if (!d.loss)
      d.extra["loss"] = l;
  }
  if (const auto m = typed_at<nlohmann::json>(j, "measured")) {
    d.measured = measured_of(*m);
    if (!d.measured)
      d.extra["measured"] = *m;
  }
  return d;
}

} // namespace dlsize::config
